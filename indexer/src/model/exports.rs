//! package.json `exports` and `imports` maps: subpath keys (exact, then `*` patterns, the
//! longest prefix winning), condition objects walked in key order, fallback arrays, and
//! `null` exclusions — the algorithm Node.js specifies and tsc follows, returning every
//! candidate target in priority order so the caller can take the first that exists.

use serde_json::{Map, Value};

/// What a map says about one key.
#[derive(Debug, PartialEq)]
pub(crate) enum MapLookup {
    /// Targets in the order they should be tried, `*` already substituted.
    Targets(Vec<String>),
    /// The key matches an entry that is `null`, or no condition of it applies.
    Excluded,
    /// No key matches.
    NoEntry,
}

/// Looks `subpath` (`.` or `./feature`) up in an `exports` value.
pub(crate) fn lookup_exports(
    exports: &Value,
    subpath: &str,
    accepts: &dyn Fn(&str) -> bool,
) -> MapLookup {
    match exports {
        Value::Object(map) if map.keys().any(|key| key.starts_with('.')) => {
            lookup_in(map, subpath, accepts)
        }
        // A string, an array or a conditions object is sugar for `{ ".": value }`.
        other if subpath == "." => targets_of(other, None, accepts),
        _ => MapLookup::NoEntry,
    }
}

/// Looks a `#name` specifier up in an `imports` value.
pub(crate) fn lookup_imports(
    imports: &Value,
    specifier: &str,
    accepts: &dyn Fn(&str) -> bool,
) -> MapLookup {
    match imports {
        Value::Object(map) => lookup_in(map, specifier, accepts),
        _ => MapLookup::NoEntry,
    }
}

fn lookup_in(map: &Map<String, Value>, key: &str, accepts: &dyn Fn(&str) -> bool) -> MapLookup {
    if !key.contains('*')
        && let Some(value) = map.get(key)
    {
        return targets_of(value, None, accepts);
    }
    let mut best: Option<(&str, &Value, usize)> = None;
    for (pattern, value) in map {
        let Some((prefix, _)) = pattern.split_once('*') else {
            continue;
        };
        if super::paths::wildcard_capture(pattern, key).is_none() {
            continue;
        }
        // Node's PATTERN_KEY_COMPARE: the longer prefix wins, then the longer key.
        let better = best.is_none_or(|(best_key, _, best_prefix)| {
            prefix.len() > best_prefix
                || (prefix.len() == best_prefix && pattern.len() > best_key.len())
        });
        if better {
            best = Some((pattern, value, prefix.len()));
        }
    }
    match best {
        Some((pattern, value, prefix_len)) => {
            let suffix_len = pattern.len() - prefix_len - 1;
            let star = &key[prefix_len..key.len() - suffix_len];
            targets_of(value, Some(star), accepts)
        }
        None => MapLookup::NoEntry,
    }
}

fn targets_of(value: &Value, star: Option<&str>, accepts: &dyn Fn(&str) -> bool) -> MapLookup {
    let mut targets = Vec::new();
    collect(value, star, accepts, &mut targets);
    if targets.is_empty() {
        MapLookup::Excluded
    } else {
        MapLookup::Targets(targets)
    }
}

/// Whether the walk goes on after a value: `null` stops it (an explicit exclusion).
#[derive(PartialEq)]
enum Flow {
    Continue,
    Stop,
}

fn collect(
    value: &Value,
    star: Option<&str>,
    accepts: &dyn Fn(&str) -> bool,
    out: &mut Vec<String>,
) -> Flow {
    match value {
        Value::String(target) => {
            out.push(match star {
                Some(star) => target.replace('*', star),
                None => target.clone(),
            });
            Flow::Continue
        }
        Value::Array(items) => {
            for item in items {
                if collect(item, star, accepts, out) == Flow::Stop {
                    return Flow::Stop;
                }
            }
            Flow::Continue
        }
        Value::Object(conditions) => {
            for (condition, nested) in conditions {
                if (condition == "default" || accepts(condition))
                    && collect(nested, star, accepts, out) == Flow::Stop
                {
                    return Flow::Stop;
                }
            }
            Flow::Continue
        }
        Value::Null => Flow::Stop,
        Value::Bool(_) | Value::Number(_) => Flow::Continue,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn esm(condition: &str) -> bool {
        matches!(condition, "types" | "import" | "node")
    }

    fn targets(list: &[&str]) -> MapLookup {
        MapLookup::Targets(list.iter().map(|s| (*s).to_owned()).collect())
    }

    #[test]
    fn exports_table() {
        let exports = json!({
            ".": { "types": "./dist/index.d.ts", "import": "./dist/index.mjs", "require": "./dist/index.cjs" },
            "./utils": { "node": { "import": "./dist/utils.mjs", "default": "./dist/utils.cjs" } },
            "./*": "./dist/*.js",
            "./features/*.js": "./dist/features/*.js",
            "./features/private/*": null,
            "./internal": null,
            "./browser": { "browser": "./dist/browser.js" },
            "./fallback": ["./dist/missing.js", "./dist/present.js"],
        });
        let rows: &[(&str, MapLookup)] = &[
            (".", targets(&["./dist/index.d.ts", "./dist/index.mjs"])),
            (
                "./utils",
                targets(&["./dist/utils.mjs", "./dist/utils.cjs"]),
            ),
            ("./format", targets(&["./dist/format.js"])),
            ("./deep/a/b", targets(&["./dist/deep/a/b.js"])),
            ("./features/x.js", targets(&["./dist/features/x.js"])),
            ("./features/private/x", MapLookup::Excluded),
            ("./internal", MapLookup::Excluded),
            ("./browser", MapLookup::Excluded),
            (
                "./fallback",
                targets(&["./dist/missing.js", "./dist/present.js"]),
            ),
        ];
        for (subpath, expected) in rows {
            assert_eq!(
                &lookup_exports(&exports, subpath, &esm),
                expected,
                "{subpath}"
            );
        }
    }

    #[test]
    fn sugar_forms_export_only_the_root() {
        let rows: &[(Value, &str, MapLookup)] = &[
            (json!("./index.js"), ".", targets(&["./index.js"])),
            (json!("./index.js"), "./x", MapLookup::NoEntry),
            (
                json!({"import": "./a.mjs", "require": "./a.cjs"}),
                ".",
                targets(&["./a.mjs"]),
            ),
            (json!(["./a.js"]), ".", targets(&["./a.js"])),
            (json!({"./a": "./a.js"}), "./b", MapLookup::NoEntry),
            (json!({"require": "./a.cjs"}), ".", MapLookup::Excluded),
        ];
        for (exports, subpath, expected) in rows {
            assert_eq!(
                &lookup_exports(exports, subpath, &esm),
                expected,
                "{exports} {subpath}"
            );
        }
    }

    #[test]
    fn imports_take_hash_keys_and_patterns() {
        let imports = json!({
            "#internal/*": "./src/internal/*.ts",
            "#config": { "types": "./src/config.ts", "default": "./dist/config.js" },
            "#dep": "some-package",
        });
        assert_eq!(
            lookup_imports(&imports, "#internal/db/pool", &esm),
            targets(&["./src/internal/db/pool.ts"])
        );
        assert_eq!(
            lookup_imports(&imports, "#config", &esm),
            targets(&["./src/config.ts", "./dist/config.js"])
        );
        assert_eq!(
            lookup_imports(&imports, "#dep", &esm),
            targets(&["some-package"])
        );
        assert_eq!(lookup_imports(&imports, "#nope", &esm), MapLookup::NoEntry);
    }
}
