//! Structured-but-mutated JSON: a tree that renders to text exactly as generated —
//! duplicate keys, odd escapes, numbers at the edges, deep nesting, huge strings — so
//! payloads can be valid in shape yet wrong in every way a careless caller could make
//! them.

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

#[derive(Clone, Debug)]
pub enum Json {
    /// A token written as is: a number, `true`, `null`, or anything else.
    Raw(String),
    /// A string, escaped when written.
    Str(String),
    /// A string whose body is written verbatim between quotes (escapes of our choosing,
    /// lone surrogates, invalid escapes).
    Verbatim(String),
    Arr(Vec<Json>),
    /// Keys may repeat.
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn str(s: &str) -> Json {
        Json::Str(s.to_owned())
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Raw(r) => out.push_str(r),
            Json::Str(s) => out.push_str(&serde_json::Value::from(s.as_str()).to_string()),
            Json::Verbatim(body) => {
                out.push('"');
                out.push_str(body);
                out.push('"');
            }
            Json::Arr(items) => {
                out.push('[');
                for (k, v) in items.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Json::Obj(fields) => {
                out.push('{');
                for (k, (name, v)) in fields.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    Json::Str(name.clone()).write(out);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// Strings matching `pattern`, compiled once (a `&str` strategy recompiles its regex on
/// every case).
pub fn re(pattern: &str) -> BoxedStrategy<String> {
    proptest::string::string_regex(pattern)
        .expect("a valid pattern")
        .boxed()
}

/// Numbers where parsers and integer types break.
pub fn edge_number() -> BoxedStrategy<Json> {
    prop_oneof![
        prop::sample::select(vec![
            "0",
            "-0",
            "1",
            "-1",
            "0.0",
            "1.0",
            "2147483648",
            "4294967295",
            "4294967296",
            "9007199254740992",
            "9007199254740993",
            "-9223372036854775809",
            "9223372036854775807",
            "18446744073709551615",
            "18446744073709551616",
            "123456789012345678901234567890",
            "1e308",
            "1e309",
            "-1e309",
            "1e-400",
            "5e-324",
            "0.1",
            "1.7976931348623157e308",
            "1E2",
            "-1.5e-7",
        ])
        .prop_map(|s| Json::Raw(s.to_owned())),
        any::<i64>().prop_map(|n| Json::Raw(n.to_string())),
        any::<u64>().prop_map(|n| Json::Raw(n.to_string())),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| Json::Raw(format!("{f:?}"))),
    ]
    .boxed()
}

/// Strings a careless caller or a hostile page could send.
pub fn edge_string() -> BoxedStrategy<Json> {
    prop_oneof![
        4 => re("\\PC{0,40}").prop_map(Json::Str),
        2 => any::<String>().prop_map(Json::Str),
        1 => (any::<char>(), 1_000usize..70_000).prop_map(|(c, n)| Json::Str(c.to_string().repeat(n))),
        2 => prop::sample::select(vec![
            "\\ud800",
            "\\udc00\\ud800",
            "\\u0000",
            "\\uFFFF",
            "\\uD83D\\uDE00",
            "\\\\",
            "\\\"",
            "\\x41",
            "\\",
            "\\u12",
            "\u{7f}\u{1}\t",
            "a\\nb\\r\\t\\/",
            "\\u00e9\\u0301",
        ])
        .prop_map(|s| Json::Verbatim(s.to_owned())),
        1 => Just(Json::str("")),
        1 => Just(Json::str("   ")),
    ]
    .boxed()
}

/// Arrays or objects nested `depth` levels (past serde_json's recursion limit too).
pub fn deep() -> BoxedStrategy<Json> {
    (1usize..3_000, any::<bool>())
        .prop_map(|(n, arrays)| {
            let (open, close) = if arrays { ("[", "]") } else { ("{\"a\":", "}") };
            Json::Raw(format!("{}1{}", open.repeat(n), close.repeat(n)))
        })
        .boxed()
}

/// Any JSON at all, shallow or deep.
pub fn any_json() -> BoxedStrategy<Json> {
    let leaf = prop_oneof![
        Just(Json::Raw("null".into())),
        Just(Json::Raw("true".into())),
        Just(Json::Raw("false".into())),
        edge_number(),
        edge_string(),
    ];
    prop_oneof![
        8 => leaf.prop_recursive(4, 24, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Json::Arr),
                prop::collection::vec((re("[a-z_]{0,8}"), inner), 0..6).prop_map(Json::Obj),
            ]
        }),
        1 => deep(),
    ]
    .boxed()
}

/// One object field: usually its valid value, else dropped, duplicated, retyped or
/// pushed to an edge.
pub fn field(name: &'static str, valid: BoxedStrategy<Json>) -> BoxedStrategy<Vec<(String, Json)>> {
    let n = name.to_owned();
    prop_oneof![
        40 => valid.clone().prop_map({ let n = n.clone(); move |v| vec![(n.clone(), v)] }),
        2 => Just(Vec::new()),
        1 => (valid.clone(), valid).prop_map({ let n = n.clone(); move |(a, b)| vec![(n.clone(), a), (n.clone(), b)] }),
        2 => any_json().prop_map({ let n = n.clone(); move |v| vec![(n.clone(), v)] }),
        1 => prop_oneof![edge_number(), edge_string(), deep()].prop_map(move |v| vec![(n.clone(), v)]),
    ]
    .boxed()
}

/// An object from its fields, sometimes with a field the contract does not define.
pub fn object(fields: Vec<BoxedStrategy<Vec<(String, Json)>>>) -> BoxedStrategy<Json> {
    let unknown = prop::option::weighted(0.05, (re("\\PC{0,12}"), any_json()));
    (fields, unknown)
        .prop_map(|(parts, extra)| {
            let mut all: Vec<(String, Json)> = parts.into_iter().flatten().collect();
            all.extend(extra);
            Json::Obj(all)
        })
        .boxed()
}

/// The payload as text, sometimes damaged after rendering: cut short, trailing
/// garbage, a stray byte, wrapped in an array, or not an object at all.
pub fn text(payload: BoxedStrategy<Json>) -> BoxedStrategy<String> {
    (
        payload,
        0u8..100,
        any::<prop::sample::Index>(),
        re("\\PC{0,3}"),
    )
        .prop_map(|(json, roll, at, junk)| {
            let text = json.render();
            let cut = |t: &str| {
                let mut i = at.index(t.len() + 1);
                while !t.is_char_boundary(i) {
                    i -= 1;
                }
                i
            };
            match roll {
                0..=84 => text,
                85..=86 => text[..cut(&text)].to_owned(),
                87..=89 => format!("{text}{junk}"),
                90..=92 => {
                    let i = cut(&text);
                    format!("{}{junk}{}", &text[..i], &text[i..])
                }
                93..=95 => format!("[{text}]"),
                96 => "null".to_owned(),
                97 => "\"a string\"".to_owned(),
                _ => String::new(),
            }
        })
        .boxed()
}
