//! The JSON configuration of the tree: the root package.json (npm workspaces), the shared
//! tsconfig.base.json (compiler options and the hub path aliases), the solution tsconfig.json
//! (project references), and each package's package.json and tsconfig.json.

use std::io;

use serde_json::{Map, Value, json};

use super::Ctx;
use super::hubs::Hub;
use super::plan::PackageKind;

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// The path from package folder `from` to package folder `to` (both `folder/slug`).
fn package_relative(from: &str, to: &str) -> String {
    match (from.split_once('/'), to.split_once('/')) {
        (Some((a, _)), Some((b, slug))) if a == b => format!("../{slug}"),
        _ => format!("../../{to}"),
    }
}

/// Writes package.json and tsconfig.json of package `index`.
pub(crate) fn write_package(ctx: &mut Ctx<'_>, index: usize) -> io::Result<()> {
    let package = &ctx.packages[index];
    let mut manifest = Map::new();
    manifest.insert("name".into(), json!(package.name));
    manifest.insert("version".into(), json!(format!("1.{}.0", index % 17)));
    manifest.insert("private".into(), json!(true));
    manifest.insert("type".into(), json!("module"));
    if package.kind != PackageKind::App {
        if package.dist_exports {
            // Libraries export feature folders (`@gen/x/feature`), hubs single modules.
            let (types, default) = if package.kind == PackageKind::Library {
                ("./dist/*/index.d.ts", "./dist/*/index.js")
            } else {
                ("./dist/*.d.ts", "./dist/*.js")
            };
            manifest.insert(
                "exports".into(),
                json!({
                    ".": { "types": "./dist/index.d.ts", "default": "./dist/index.js" },
                    "./*": { "types": types, "default": default },
                    "./package.json": "./package.json"
                }),
            );
        } else {
            manifest.insert("main".into(), json!("./src/index.ts"));
            manifest.insert("types".into(), json!("./src/index.ts"));
        }
    }
    manifest.insert(
        "scripts".into(),
        json!({ "build": "tsc -b", "clean": "rm -rf dist" }),
    );
    let mut deps = Map::new();
    for &dep in &package.deps {
        deps.insert(ctx.packages[dep].name.clone(), json!("*"));
    }
    if package.jsx() {
        deps.insert("react".into(), json!("^18.3.1"));
    }
    manifest.insert("dependencies".into(), Value::Object(deps));

    let references: Vec<Value> = package
        .deps
        .iter()
        .map(|&dep| json!({ "path": package_relative(&package.dir, &ctx.packages[dep].dir) }))
        .collect();
    let tsconfig = json!({
        "extends": "../../tsconfig.base.json",
        "compilerOptions": { "rootDir": "src", "outDir": "dist" },
        "include": ["src"],
        "references": references
    });
    let dir = package.dir.clone();
    ctx.emit_text(
        &format!("{dir}/package.json"),
        &pretty(&Value::Object(manifest)),
    )?;
    ctx.emit_text(&format!("{dir}/tsconfig.json"), &pretty(&tsconfig))
}

/// Writes the root files: package.json, tsconfig.base.json, tsconfig.json, .gitignore.
pub(crate) fn write_root(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let root = json!({
        "name": "gen-monorepo",
        "private": true,
        "description": "Synthetic TypeScript monorepo written by tsgraph-bench gen-monorepo.",
        "workspaces": ["packages/*", "apps/*"],
        "scripts": { "build": "tsc -b", "typecheck": "tsc -b --verbose" },
        "devDependencies": { "typescript": "^5.4.0" }
    });
    let mut paths = Map::new();
    for hub in [Hub::Shared, Hub::Core, Hub::Ui] {
        let dir = &ctx.packages[hub.package()].dir;
        paths.insert(
            format!("{}/*", hub.alias()),
            json!([format!("./{dir}/src/*")]),
        );
    }
    let base = json!({
        "compilerOptions": {
            "target": "ES2022",
            "lib": ["ES2022"],
            "module": "ESNext",
            "moduleResolution": "Bundler",
            "jsx": "react-jsx",
            "strict": true,
            "composite": true,
            "declaration": true,
            "forceConsistentCasingInFileNames": true,
            "paths": Value::Object(paths)
        }
    });
    let references: Vec<Value> = ctx
        .packages
        .iter()
        .map(|p| json!({ "path": p.dir }))
        .collect();
    let solution = json!({ "files": [], "references": references });
    ctx.emit_text("package.json", &pretty(&root))?;
    ctx.emit_text("tsconfig.base.json", &pretty(&base))?;
    ctx.emit_text("tsconfig.json", &pretty(&solution))?;
    ctx.emit_text(".gitignore", "node_modules/\ndist/\n*.tsbuildinfo\n")
}
