//! ts-graph-mcp.config.json, the configuration of the ts-graph-mcp server, read so that its
//! users keep their package and module names. Two forms: `{"modules": [{"name", "packages":
//! [{"name", "tsconfig"}]}]}` and the flat `{"packages": [...]}`, whose packages belong to an
//! implicit module `main`. `tsconfig` paths are relative to the project root. Other keys
//! (`storage`, `watch`, `server`) are not ours and are ignored.

use serde_json::Value;

use super::jsonc::parse_jsonc;

/// One package of the config: the files its tsconfig claims get this package and module.
#[derive(Debug, PartialEq)]
pub(crate) struct Assignment {
    pub(crate) module: String,
    pub(crate) package: String,
    /// The tsconfig as written.
    pub(crate) tsconfig: String,
    /// Where it sits in the file, for warnings (`modules.0.packages.1`).
    pub(crate) at: Vec<String>,
}

/// Reads the assignments; problems come back as (line, message).
pub(crate) fn parse(text: &str) -> Result<Vec<Assignment>, (Option<u32>, String)> {
    let value = parse_jsonc(text).map_err(|failure| (failure.line, failure.message))?;
    let mut assignments = Vec::new();
    if let Some(modules) = value.get("modules") {
        let modules = modules
            .as_array()
            .ok_or((None, "`modules` is not an array".to_owned()))?;
        for (m, module) in modules.iter().enumerate() {
            let name = module
                .get("name")
                .and_then(Value::as_str)
                .ok_or((None, format!("modules[{m}] has no `name`")))?;
            let at = vec!["modules".to_owned(), m.to_string(), "packages".to_owned()];
            packages(module.get("packages"), name, at, &mut assignments)?;
        }
    } else if value.get("packages").is_some() {
        packages(
            value.get("packages"),
            "main",
            vec!["packages".to_owned()],
            &mut assignments,
        )?;
    } else {
        return Err((Some(1), "has neither `modules` nor `packages`".to_owned()));
    }
    Ok(assignments)
}

fn packages(
    list: Option<&Value>,
    module: &str,
    at: Vec<String>,
    out: &mut Vec<Assignment>,
) -> Result<(), (Option<u32>, String)> {
    let where_ = at.join(".");
    let list = list
        .and_then(Value::as_array)
        .ok_or((None, format!("`{where_}` is not an array")))?;
    for (p, package) in list.iter().enumerate() {
        let field = |key: &str| {
            package
                .get(key)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        };
        let (Some(name), Some(tsconfig)) = (field("name"), field("tsconfig")) else {
            return Err((
                None,
                format!("`{where_}[{p}]` needs a `name` and a `tsconfig`"),
            ));
        };
        let mut place = at.clone();
        place.push(p.to_string());
        out.push(Assignment {
            module: module.to_owned(),
            package: name.to_owned(),
            tsconfig: tsconfig.to_owned(),
            at: place,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_are_read() {
        let full = r#"{ "modules": [ { "name": "core", "packages": [
            { "name": "domain", "tsconfig": "./packages/domain/tsconfig.json" } ] } ],
            "storage": { "type": "sqlite" } }"#;
        let read = parse(full).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(
            (read[0].module.as_str(), read[0].package.as_str()),
            ("core", "domain")
        );
        assert_eq!(read[0].tsconfig, "./packages/domain/tsconfig.json");
        let flat = r#"{ "packages": [ { "name": "api", "tsconfig": "api/tsconfig.json" } ] }"#;
        assert_eq!(parse(flat).unwrap()[0].module, "main");
        assert!(parse(r#"{ "packages": [ { "name": "x" } ] }"#).is_err());
        assert!(parse(r#"{ "storage": {} }"#).is_err());
        assert_eq!(parse("{ nope").unwrap_err().0, Some(1));
    }
}
