//! `Validator::evaluate`: annotations, the output formats, budgets.

use serde_json::{Value, json};

use schemavm::output::BudgetExceeded;
use schemavm::{Budget, Exhausted, OutputFormat, Validator};

fn evaluate(schema: Value, instance: Value) -> schemavm::Evaluation {
    Validator::new(&schema).unwrap().evaluate(&instance).unwrap()
}

/// `(instance location, keyword, value)` of every kept annotation.
fn annotations(e: &schemavm::Evaluation) -> Vec<(String, String, Value)> {
    e.annotations().map(|a| (a.instance_location.to_string(), a.keyword.to_string(), a.value.clone())).collect()
}

#[test]
fn static_and_applicator_annotations() {
    let e = evaluate(
        json!({"title": "Root", "properties": {"a": {"description": "A", "default": 1}},
               "patternProperties": {"^b": true}, "additionalProperties": {"readOnly": true},
               "x-vendor": {"k": 1}}),
        json!({"a": 1, "bc": 2, "z": 3}),
    );
    assert!(e.is_valid());
    let got = annotations(&e);
    for expected in [
        ("", "title", json!("Root")),
        ("", "x-vendor", json!({"k": 1})),
        ("", "properties", json!(["a"])),
        ("", "patternProperties", json!(["bc"])),
        ("", "additionalProperties", json!(["z"])),
        ("/a", "description", json!("A")),
        ("/a", "default", json!(1)),
        ("/z", "readOnly", json!(true)),
    ] {
        let expected = (expected.0.to_string(), expected.1.to_string(), expected.2);
        assert!(got.contains(&expected), "{expected:?} missing from {got:?}");
    }
}

#[test]
fn array_annotations() {
    let e = evaluate(
        json!({"prefixItems": [{"title": "first"}], "items": {"title": "rest"},
               "contains": {"type": "string"}}),
        json!([1, "x", "y"]),
    );
    let got = annotations(&e);
    assert!(got.contains(&("".into(), "prefixItems".into(), json!(0))));
    assert!(got.contains(&("".into(), "items".into(), json!(true))));
    assert!(got.contains(&("".into(), "contains".into(), json!([1, 2]))));
    assert!(got.contains(&("/0".into(), "title".into(), json!("first"))));
    assert!(got.contains(&("/2".into(), "title".into(), json!("rest"))));
    let e = evaluate(json!({"prefixItems": [true, true]}), json!([1]));
    assert_eq!(annotations(&e), [("".to_string(), "prefixItems".to_string(), json!(true))]);
    let e = evaluate(json!({"unevaluatedItems": {"title": "u"}}), json!([1]));
    assert!(annotations(&e).contains(&("".into(), "unevaluatedItems".into(), json!(true))));
}

#[test]
fn annotations_of_failed_subschemas_are_dropped() {
    let e = evaluate(
        json!({"anyOf": [{"type": "integer", "title": "int"}, {"title": "any"}],
               "not": {"title": "never", "type": "string"}}),
        json!(1.5),
    );
    assert!(e.is_valid());
    let titles: Vec<Value> = e.annotations().filter(|a| a.keyword == "title").map(|a| a.value.clone()).collect();
    assert_eq!(titles, [json!("any")]);
    // Inside a failing subschema, even passing ones are dropped.
    let e = evaluate(json!({"title": "root", "properties": {"a": {"title": "a"}}, "required": ["b"]}), json!({"a": 1}));
    assert!(!e.is_valid());
    assert_eq!(e.annotations().count(), 0);
    assert_eq!(e.errors().count(), 1);
}

#[test]
fn content_annotations_only_for_strings() {
    let schema = json!({"contentMediaType": "application/json", "contentEncoding": "base64"});
    assert_eq!(evaluate(schema.clone(), json!("e30=")).annotations().count(), 2);
    assert_eq!(evaluate(schema, json!(42)).annotations().count(), 0);
}

#[test]
fn skip_annotations_keeps_only_applicator_annotations() {
    let v = Validator::options()
        .skip_annotations(true)
        .build(&json!({"title": "T", "properties": {"a": {"title": "A"}}}))
        .unwrap();
    let e = v.evaluate(&json!({"a": 1})).unwrap();
    assert_eq!(annotations(&e), [("".to_string(), "properties".to_string(), json!(["a"]))]);
}

#[test]
fn flag_and_basic() {
    let schema = json!({"$id": "https://example.com/s", "properties": {"n": {"type": "integer"}}, "readOnly": true});
    let bad = evaluate(schema.clone(), json!({"n": "x"}));
    assert_eq!(bad.render(OutputFormat::Flag), json!({"valid": false}));
    assert_eq!(
        bad.render(OutputFormat::Basic),
        json!({"valid": false, "errors": [{
            "valid": false,
            "keywordLocation": "/properties/n/type",
            "absoluteKeywordLocation": "https://example.com/s#/properties/n/type",
            "instanceLocation": "/n",
            "error": "must be an integer (got a string)",
        }]})
    );
    let good = evaluate(schema, json!({"n": 1}));
    let basic = good.render(OutputFormat::Basic);
    assert_eq!(basic["valid"], json!(true));
    assert!(basic.get("errors").is_none());
    assert!(basic["annotations"].as_array().unwrap().contains(&json!({
        "valid": true,
        "keywordLocation": "/readOnly",
        "absoluteKeywordLocation": "https://example.com/s#/readOnly",
        "instanceLocation": "",
        "annotation": true,
    })));
}

#[test]
fn detailed_condenses_and_verbose_keeps_everything() {
    let schema = json!({"$id": "https://example.com/s", "$defs": {"n": {"type": "integer"}},
                        "properties": {"a": {"$ref": "#/$defs/n"}, "b": true}});
    let e = evaluate(schema, json!({"a": "x", "b": 1}));
    let detailed = e.render(OutputFormat::Detailed);
    // The root, then `/properties/a` (its `$ref` unit has one entry and
    // is replaced by it), then the `type` error.
    let errors = detailed["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["keywordLocation"], json!("/properties/a/$ref"));
    assert_eq!(errors[0]["absoluteKeywordLocation"], json!("https://example.com/s#/$defs/n"));
    assert_eq!(errors[0]["errors"][0]["keywordLocation"], json!("/properties/a/$ref/type"));
    let verbose = e.render(OutputFormat::Verbose);
    let children = verbose["errors"].as_array().unwrap();
    // `/properties/a` (failed) and `/properties/b` (passed) are both there.
    assert_eq!(children.len(), 2);
    assert!(children.iter().any(|c| c["keywordLocation"] == json!("/properties/b") && c["valid"] == json!(true)));
}

#[test]
fn list_and_hierarchical() {
    let schema = json!({"$id": "https://example.com/s", "type": "object", "title": "T",
                        "properties": {"a": {"type": "string", "title": "A"}}, "additionalProperties": false});
    let e = evaluate(schema, json!({"a": 1, "zz": 2}));
    let list = e.render(OutputFormat::List);
    assert_eq!(list["valid"], json!(false));
    let details = list["details"].as_array().unwrap();
    let root = &details[0];
    assert_eq!(root["evaluationPath"], json!(""));
    assert_eq!(root["schemaLocation"], json!("https://example.com/s#"));
    assert_eq!(root["droppedAnnotations"]["title"], json!("T"));
    let a = details.iter().find(|d| d["evaluationPath"] == json!("/properties/a")).unwrap();
    assert_eq!(a["instanceLocation"], json!("/a"));
    assert_eq!(a["errors"]["type"], json!("must be a string (got an integer)"));
    // The `false` schema is checked in place; its error gets a unit of its own.
    let extra = details.iter().find(|d| d["instanceLocation"] == json!("/zz")).unwrap();
    assert_eq!(extra["evaluationPath"], json!("/additionalProperties"));
    assert!(extra["errors"]["false"].as_str().unwrap().contains("unknown property"));
    let tree = e.render(OutputFormat::Hierarchical);
    assert_eq!(tree["evaluationPath"], json!(""));
    assert_eq!(tree["details"].as_array().unwrap().len(), 2);
}

#[test]
fn masked_values_stay_masked() {
    let v = Validator::options().mask_values(true).build(&json!({"const": "open"})).unwrap();
    let basic = v.evaluate(&json!("sk-secret")).unwrap().render(OutputFormat::Basic);
    let text = basic.to_string();
    assert!(!text.contains("sk-secret"), "{text}");
}

#[test]
fn budget_exhaustion_is_not_a_verdict() {
    let v = Validator::new(&json!({"items": {"type": "integer"}})).unwrap();
    let budget = Budget { fuel: 50, ..Budget::default() };
    let e = v.evaluate_with(&json!(vec![1; 100]), &budget).unwrap_err();
    assert!(matches!(e, BudgetExceeded { reason: Exhausted::Fuel, .. }));
    assert!(e.to_string().starts_with("not evaluated: the fuel budget ran out"));
}

#[test]
fn deep_instances_are_bounded() {
    let v = Validator::new(&json!({"items": {"$ref": "#"}, "title": "t"})).unwrap();
    let mut deep = json!(1);
    for _ in 0..100_000 {
        deep = Value::Array(vec![deep]);
    }
    assert!(matches!(v.evaluate(&deep), Err(BudgetExceeded { reason: Exhausted::Depth, .. })));
    let mut shallow = json!(1);
    for _ in 0..500 {
        shallow = Value::Array(vec![shallow]);
    }
    let e = v.evaluate(&shallow).unwrap();
    for format in OutputFormat::ALL {
        assert_eq!(e.render(format)["valid"], json!(true));
    }
    drop(e);
    // `serde_json` drops nested values recursively; unwind the test's own
    // instance without that.
    let mut stack = vec![deep];
    while let Some(v) = stack.pop() {
        if let Value::Array(items) = v {
            stack.extend(items);
        }
    }
}

#[test]
fn a_cut_error_list_says_so() {
    let v = Validator::options().max_errors(2).build(&json!({"items": {"type": "string"}})).unwrap();
    let e = v.evaluate(&json!([1, 2, 3, 4])).unwrap();
    let messages: Vec<String> = e.errors().map(|e| e.message()).collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    // The root's own errors come first.
    assert!(messages[0].starts_with("more errors than the error limit (2)"), "{messages:?}");
}

#[test]
fn quiet_subschemas_have_their_own_paths() {
    let e = evaluate(json!({"not": {"type": "string"}, "if": {"title": "if"}, "then": true}), json!(1));
    let verbose = e.render(OutputFormat::Verbose);
    let paths: Vec<&Value> = verbose["annotations"].as_array().unwrap().iter().map(|u| &u["keywordLocation"]).collect();
    assert!(paths.contains(&&json!("/if")) && paths.contains(&&json!("/then")), "{verbose}");
    assert!(paths.contains(&&json!("/not")), "{verbose}");
    assert!(annotations(&e).contains(&("".into(), "title".into(), json!("if"))));
}

#[test]
fn failing_alternatives_of_a_recursive_one_of_stay_linear() {
    // Every level tries four alternatives; each descends into `content`,
    // which is valid, so a naive evaluation doubles (and more) per level.
    let tags: Vec<Value> = ["a", "b", "c", "d"]
        .iter()
        .map(|t| {
            json!({"required": ["tag"], "properties": {"tag": {"const": t},
                   "content": {"$ref": "#/$defs/node"}}})
        })
        .collect();
    let schema = json!({"$ref": "#/$defs/node",
                        "$defs": {"node": {"oneOf": [{"type": "string", "title": "leaf"}, {"oneOf": tags}]}}});
    let mut instance = json!("x");
    for _ in 0..40 {
        instance = json!({"tag": "d", "content": instance});
    }
    let v = Validator::new(&schema).unwrap();
    let e = v.evaluate(&instance).unwrap();
    assert!(e.is_valid());
    let leaf = "/content".repeat(40);
    assert!(annotations(&e).contains(&(leaf, "title".into(), json!("leaf"))));
}

#[test]
fn format_names_round_trip() {
    for f in OutputFormat::ALL {
        assert_eq!(f.name().parse::<OutputFormat>(), Ok(f));
    }
    assert!("nope".parse::<OutputFormat>().is_err());
}
