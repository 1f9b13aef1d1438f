//! A small command-line parser: `--flag`, `--option VALUE`,
//! `--option=VALUE` and positional arguments.

/// Parsed arguments of one command.
#[derive(Debug, Default)]
pub struct Args {
    options: Vec<(String, Option<String>)>,
    /// Positional arguments, in order.
    pub positional: Vec<String>,
}

impl Args {
    /// Parses `argv`; `takes_value` names the options that take a value.
    pub fn parse(argv: &[String], takes_value: &[&str], flags: &[&str]) -> Result<Args, String> {
        let mut args = Args::default();
        let mut iter = argv.iter();
        while let Some(arg) = iter.next() {
            if arg == "--" {
                args.positional.extend(iter.by_ref().cloned());
                break;
            }
            let Some(body) = arg.strip_prefix("--") else {
                args.positional.push(arg.clone());
                continue;
            };
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            if takes_value.contains(&name) {
                let value = match inline {
                    Some(v) => v,
                    None => iter.next().cloned().ok_or_else(|| format!("--{name} needs a value"))?,
                };
                args.options.push((name.to_string(), Some(value)));
            } else if flags.contains(&name) {
                if inline.is_some() {
                    return Err(format!("--{name} takes no value"));
                }
                args.options.push((name.to_string(), None));
            } else {
                return Err(format!("unknown option --{name}"));
            }
        }
        Ok(args)
    }

    /// The last value of option `name`.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.options.iter().rev().find(|(n, _)| n == name).and_then(|(_, v)| v.as_deref())
    }

    /// Every value of option `name`, in order.
    pub fn values(&self, name: &str) -> Vec<&str> {
        self.options.iter().filter(|(n, _)| n == name).filter_map(|(_, v)| v.as_deref()).collect()
    }

    /// Whether flag `name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn parses_options_flags_and_positionals() {
        let a = Args::parse(
            &argv(&["--schema", "s.json", "--draft=7", "--assert-formats", "a.json", "b.json"]),
            &["schema", "draft"],
            &["assert-formats"],
        )
        .unwrap();
        assert_eq!(a.value("schema"), Some("s.json"));
        assert_eq!(a.value("draft"), Some("7"));
        assert!(a.flag("assert-formats"));
        assert_eq!(a.positional, vec!["a.json", "b.json"]);
    }

    #[test]
    fn rejects_unknown_and_incomplete() {
        assert!(Args::parse(&argv(&["--nope"]), &[], &[]).is_err());
        assert!(Args::parse(&argv(&["--schema"]), &["schema"], &[]).is_err());
        assert!(Args::parse(&argv(&["--flag=1"]), &[], &["flag"]).is_err());
    }
}
