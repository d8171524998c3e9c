//! package.json, reduced to what resolution and package naming need.

use serde_json::Value;

/// The fields of one package.json that the model uses.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Manifest {
    /// Project-relative path of the package.json file.
    pub(crate) path: String,
    /// Its folder (`""` at the root).
    pub(crate) folder: String,
    /// `name`, when it is a non-empty string.
    pub(crate) name: Option<String>,
    /// `"type": "module"`: `.js` and `.ts` files below are ES modules (node16/nodenext).
    pub(crate) type_module: bool,
    /// `types`, then `typings`, then `main`, then `module`: the entry fields, in the order
    /// they are tried when `exports` does not apply.
    pub(crate) entries: Vec<String>,
    /// `exports`, kept as written (key order matters for conditions).
    #[serde(with = "json_text")]
    pub(crate) exports: Option<Value>,
    /// `imports` (`#name` specifiers), kept as written.
    #[serde(with = "json_text")]
    pub(crate) imports: Option<Value>,
    /// `workspaces` globs (npm/yarn array form, or the `packages` of the object form).
    pub(crate) workspaces: Vec<String>,
    /// Whether `workspaces` was present but had a shape that is not understood.
    pub(crate) bad_workspaces: bool,
    /// Whether the file could not be parsed: the folder is still a package (its files must
    /// not be attributed to an enclosing one), but an unnamed one.
    pub(crate) broken: bool,
    /// The text, kept to find lines for warnings.
    pub(crate) text: String,
}

impl Manifest {
    /// Reads the fields from a parsed package.json.
    pub(crate) fn from_value(path: &str, folder: &str, value: &Value, text: String) -> Manifest {
        let string = |key: &str| {
            value
                .get(key)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        let entries = ["types", "typings", "main", "module"]
            .iter()
            .filter_map(|key| string(key))
            .collect();
        let (workspaces, bad_workspaces) = match value.get("workspaces") {
            None => (Vec::new(), false),
            Some(Value::Array(items)) => strings(items),
            Some(Value::Object(object)) => match object.get("packages") {
                Some(Value::Array(items)) => strings(items),
                None => (Vec::new(), false),
                Some(_) => (Vec::new(), true),
            },
            Some(_) => (Vec::new(), true),
        };
        Manifest {
            path: path.to_owned(),
            folder: folder.to_owned(),
            name: string("name"),
            type_module: value.get("type").and_then(Value::as_str) == Some("module"),
            entries,
            exports: value.get("exports").filter(|v| !v.is_null()).cloned(),
            imports: value.get("imports").filter(|v| v.is_object()).cloned(),
            workspaces,
            bad_workspaces,
            broken: false,
            text,
        }
    }
}

/// The strings of a JSON array, and whether anything else was in it.
fn strings(items: &[Value]) -> (Vec<String>, bool) {
    let found: Vec<String> = items
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    let bad = found.len() != items.len();
    (found, bad)
}

/// A JSON value kept as its text when a model is written down (see `model::cache`): the
/// binary encoding it is kept in cannot carry a self-describing value, and an `exports` map
/// is small.
mod json_text {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value;

    pub(super) fn serialize<S: Serializer>(
        value: &Option<Value>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value
            .as_ref()
            .map(|value| value.to_string())
            .serialize(serializer)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Value>, D::Error> {
        let text = Option::<String>::deserialize(deserializer)?;
        text.map(|text| serde_json::from_str(&text).map_err(serde::de::Error::custom))
            .transpose()
    }
}
