//! Format checkers (placeholder: filled by the formats work).
