//! Table-driven tests of the project model. A fixture is one string of files, each after a
//! `//- path` header (rust-analyzer style); files with a source extension form the file list
//! (their text is ignored), every other file is configuration. An expected resolution is a
//! path, `ext:NAME` for an external package, or `?reason` (`?missing`, `?not-source`,
//! `?not-exported`, `?outside`, `?unsupported`).

use std::collections::BTreeMap;

use super::paths::file_name;
use super::source::DISCOVERED_NAMES;
use super::{ProjectModel, Resolution, UnresolvedReason};

const SOURCE_EXTENSIONS: &[&str] = &[".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

fn split(fixture: &str) -> (BTreeMap<String, String>, Vec<String>) {
    let mut configs = BTreeMap::new();
    let mut files = Vec::new();
    let mut current: Option<(String, String)> = None;
    let finish = |entry: Option<(String, String)>,
                  configs: &mut BTreeMap<String, String>,
                  files: &mut Vec<String>| {
        if let Some((path, text)) = entry {
            let is_source = SOURCE_EXTENSIONS.iter().any(|ext| path.ends_with(ext))
                && !super::paths::is_declaration(&path)
                && !DISCOVERED_NAMES.contains(&file_name(&path));
            if is_source {
                files.push(path);
            } else {
                configs.insert(path, text);
            }
        }
    };
    for line in fixture.lines() {
        if let Some(path) = line.trim_start().strip_prefix("//- ") {
            finish(current.take(), &mut configs, &mut files);
            current = Some((path.trim().to_owned(), String::new()));
        } else if let Some((_, text)) = &mut current {
            text.push_str(line.strip_prefix("    ").unwrap_or(line.trim_start()));
            text.push('\n');
        }
    }
    finish(current, &mut configs, &mut files);
    (configs, files)
}

fn model(fixture: &str) -> ProjectModel {
    let (configs, files) = split(fixture);
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    ProjectModel::from_sources(&configs, &refs)
}

fn show(resolution: &Resolution) -> String {
    match resolution {
        Resolution::File(path) => path.clone(),
        Resolution::External { package } => format!("ext:{package}"),
        Resolution::Unresolved(reason) => match reason {
            UnresolvedReason::MissingFile => "?missing",
            UnresolvedReason::NotSource => "?not-source",
            UnresolvedReason::NotExported => "?not-exported",
            UnresolvedReason::OutsideRoot => "?outside",
            UnresolvedReason::UnsupportedForm => "?unsupported",
        }
        .to_owned(),
    }
}

/// Resolves every row (importer, specifier, expected) and reports all mismatches at once.
fn check(fixture: &str, rows: &[(&str, &str, &str)]) {
    let model = model(fixture);
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|(importer, specifier, expected)| {
            let got = show(&model.resolve(importer, specifier));
            (got != *expected).then(|| {
                format!("{importer} imports {specifier:?}: expected {expected}, got {got}")
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "\n{}\nwarnings: {:#?}",
        failures.join("\n"),
        model.warnings()
    );
}

fn warnings_of(fixture: &str) -> Vec<String> {
    model(fixture)
        .warnings()
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn relative_specifiers_resolve_like_typescript() {
    let fixture = r##"
        //- src/db/user.ts
        //- src/db/index.ts
        //- src/ui/App.tsx
        //- src/main.ts
        //- src/util.ts
        //- src/util.js
        //- src/esm.mts
        //- src/cjs.cts
        //- src/user.service.ts
        //- lib/util.js
        //- lib/button.jsx
        //- vendor/pkg/package.json
        {"main": "./build/entry.js"}
        //- vendor/pkg/build/entry.js
        //- vendor/typed/package.json
        {"types": "./types/index.d.ts", "main": "./nothing.js"}
        //- vendor/typed/types/index.ts
    "##;
    check(
        fixture,
        &[
            ("src/main.ts", "./db/user.js", "src/db/user.ts"),
            ("src/main.ts", "./db/user", "src/db/user.ts"),
            ("src/main.ts", "./db/user.ts", "src/db/user.ts"),
            ("src/main.ts", "./db", "src/db/index.ts"),
            ("src/main.ts", "./db/index.js", "src/db/index.ts"),
            ("src/db/user.ts", "../ui/App.js", "src/ui/App.tsx"),
            ("src/db/user.ts", "../ui/App.jsx", "src/ui/App.tsx"),
            ("src/db/user.ts", "..", "?missing"),
            ("src/db/user.ts", ".", "src/db/index.ts"),
            ("src/db/user.ts", "../../lib/util.js", "lib/util.js"),
            ("src/main.ts", "../lib/button", "lib/button.jsx"),
            // tsc prefers the TypeScript source over a JavaScript file of the same name.
            ("src/main.ts", "./util.js", "src/util.ts"),
            ("src/main.ts", "./esm.mjs", "src/esm.mts"),
            ("src/main.ts", "./cjs.cjs", "src/cjs.cts"),
            ("src/main.ts", "./esm", "src/esm.mts"),
            ("src/main.ts", "./user.service", "src/user.service.ts"),
            ("src/main.ts", "../vendor/pkg", "vendor/pkg/build/entry.js"),
            (
                "src/main.ts",
                "../vendor/typed",
                "vendor/typed/types/index.ts",
            ),
            ("src/main.ts", "../../../x", "?outside"),
            ("src/main.ts", "./nope", "?missing"),
            ("src/main.ts", "./data.json", "?not-source"),
            ("src/main.ts", "./styles.module.css", "?not-source"),
            ("src/main.ts", "./logo.svg?react", "?unsupported"),
            ("src/main.ts", "raw-loader!./x.txt", "?unsupported"),
            ("src/main.ts", "/abs/path", "?unsupported"),
            ("src/main.ts", "https://esm.sh/react", "?unsupported"),
            ("src/main.ts", "", "?unsupported"),
        ],
    );
}

#[test]
fn bare_specifiers_without_config_are_external() {
    check(
        "//- src/a.ts\n",
        &[
            ("src/a.ts", "react", "ext:react"),
            ("src/a.ts", "react-dom/client", "ext:react-dom"),
            ("src/a.ts", "@scope/pkg", "ext:@scope/pkg"),
            ("src/a.ts", "@scope/pkg/deep/file.js", "ext:@scope/pkg"),
            ("src/a.ts", "node:fs", "ext:node:fs"),
            ("src/a.ts", "node:fs/promises", "ext:node:fs"),
            ("src/a.ts", "cloudflare:workers", "ext:cloudflare:workers"),
            ("src/a.ts", "bun:test", "ext:bun:test"),
            ("src/a.ts", "fs", "ext:fs"),
            ("src/a.ts", "@/components/x", "?unsupported"),
            ("src/a.ts", "~/lib", "?unsupported"),
            // A bundler's virtual module is provided by the tooling, outside the project.
            ("src/a.ts", "virtual:pwa", "ext:virtual:pwa"),
            ("src/a.ts", "#internal", "?not-exported"),
        ],
    );
}

#[test]
fn paths_try_fallbacks_in_order_then_base_url() {
    let fixture = r##"
        //- tsconfig.json
        {
          // comments and trailing commas are fine
          "compilerOptions": {
            "baseUrl": "./src",
            "paths": {
              "@shared/*": ["../generated/shared/*", "shared/*"],
              "@app/*": ["app/*"],
              "@app/special": ["special/entry.ts"],
              "@app/feature/*": ["features/*/index"],
              "config": ["config/main"],
              "*": ["types/*"],
            },
          },
        }
        //- src/shared/format.ts
        //- generated/shared/ids.ts
        //- src/app/main.ts
        //- src/special/entry.ts
        //- src/features/login/index.ts
        //- src/config/main.ts
        //- src/types/globals.ts
        //- src/utils/strings.ts
    "##;
    check(
        fixture,
        &[
            ("src/app/main.ts", "@shared/ids", "generated/shared/ids.ts"),
            ("src/app/main.ts", "@shared/format", "src/shared/format.ts"),
            (
                "src/app/main.ts",
                "@shared/format.js",
                "src/shared/format.ts",
            ),
            ("src/app/main.ts", "@app/special", "src/special/entry.ts"),
            (
                "src/app/main.ts",
                "@app/feature/login",
                "src/features/login/index.ts",
            ),
            ("src/app/main.ts", "@app/main", "src/app/main.ts"),
            ("src/app/main.ts", "config", "src/config/main.ts"),
            ("src/app/main.ts", "globals", "src/types/globals.ts"),
            // baseUrl lookup after paths.
            ("src/app/main.ts", "utils/strings", "src/utils/strings.ts"),
            // An alias whose targets are all missing is a missing file, not a package.
            ("src/app/main.ts", "@shared/nope", "?missing"),
            // The catch-all `*` falls through to node_modules.
            ("src/app/main.ts", "react", "ext:react"),
        ],
    );
}

#[test]
fn paths_without_base_url_are_relative_to_the_declaring_config() {
    let fixture = r##"
        //- configs/paths.json
        {"compilerOptions": {"paths": {"#lib/*": ["../lib/*"]}}}
        //- app/tsconfig.json
        {"extends": "../configs/paths.json"}
        //- app/main.ts
        //- lib/log.ts
        //- other/tsconfig.json
        {"extends": "../configs/paths.json", "compilerOptions": {"baseUrl": "./src"}}
        //- other/x.ts
    "##;
    check(
        fixture,
        &[
            ("app/main.ts", "#lib/log", "lib/log.ts"),
            // With a baseUrl, paths targets are relative to it instead.
            ("other/x.ts", "#lib/log", "?missing"),
        ],
    );
}

#[test]
fn extends_chains_merge_like_tsc() {
    let fixture = r##"
        //- node_modules/@tsconfig/strictest/tsconfig.json
        {"compilerOptions": {"strict": true, "moduleResolution": "node10"}}
        //- node_modules/@tsconfig/node/package.json
        {"name": "@tsconfig/node", "tsconfig": "./base.json"}
        //- node_modules/@tsconfig/node/base.json
        {"compilerOptions": {"paths": {"@node/*": ["${configDir}/node/*"]}}}
        //- package.json
        {"name": "root", "workspaces": ["tooling/*", "apps/*"]}
        //- tooling/tsconfig/package.json
        {"name": "@repo/tsconfig", "exports": {"./node": "./configs/node.json", "./*": "./*"}}
        //- tooling/tsconfig/configs/node.json
        {"compilerOptions": {"baseUrl": "${configDir}"}}
        //- apps/svc/tsconfig.json
        {"extends": "@repo/tsconfig/node"}
        //- apps/svc/jobs/run.ts
        //- apps/svc/main.ts
        //- tooling/tsconfig/base.json
        {"compilerOptions": {"baseUrl": "${configDir}/src", "paths": {"~/*": ["./*"]}}, "include": ["${configDir}/src"]}
        //- tooling/tsconfig/aliases.json
        {"compilerOptions": {"paths": {"@lib/*": ["${configDir}/../../libs/*"]}}}
        //- apps/web/package.json
        {"name": "web"}
        //- apps/web/tsconfig.json
        {"extends": ["@tsconfig/strictest", "@repo/tsconfig/base.json", "@repo/tsconfig/aliases"]}
        //- apps/web/src/main.ts
        //- apps/web/src/util/dates.ts
        //- libs/log.ts
        //- apps/api/package.json
        {"name": "api"}
        //- apps/api/tsconfig.json
        {"extends": ["@repo/tsconfig/aliases", "@repo/tsconfig/base"]}
        //- apps/api/src/server.ts
        //- apps/api/src/db.ts
        //- apps/node/tsconfig.json
        {"extends": "@tsconfig/node"}
        //- apps/node/main.ts
        //- apps/node/node/fs.ts
    "##;
    check(
        fixture,
        &[
            // The last base wins: aliases.json's `paths` replace base.json's;
            // base.json's baseUrl still applies, against apps/web.
            ("apps/web/src/main.ts", "@lib/log", "libs/log.ts"),
            ("apps/web/src/main.ts", "~/util/dates", "?unsupported"),
            (
                "apps/web/src/main.ts",
                "util/dates",
                "apps/web/src/util/dates.ts",
            ),
            // Reversed order: base.json's `paths` win, `${configDir}` is apps/api.
            ("apps/api/src/server.ts", "~/db", "apps/api/src/db.ts"),
            ("apps/api/src/server.ts", "@lib/log", "ext:@lib/log"),
            // A config package's `exports` map names the file.
            ("apps/svc/main.ts", "jobs/run", "apps/svc/jobs/run.ts"),
            // A package's `tsconfig` field names its config.
            ("apps/node/main.ts", "@node/fs", "apps/node/node/fs.ts"),
        ],
    );
    let model = model(fixture);
    assert_eq!(model.warnings(), &[]);
    assert_eq!(
        model.config_of("apps/web/src/main.ts"),
        Some("apps/web/tsconfig.json")
    );
}

#[test]
fn extends_cycles_and_missing_bases_warn_and_keep_the_rest() {
    let fixture = r##"
        //- tsconfig.json
        {
          "extends": "./a.json",
          "compilerOptions": {"paths": {"@x/*": ["x/*"]}}
        }
        //- a.json
        {"extends": "./b"}
        //- b.json
        {
          "compilerOptions": {"baseUrl": "."},
          "extends": "./a.json"
        }
        //- pkg/tsconfig.json
        {"extends": ["./missing.json", "@nope/tsconfig", "../../outside.json"], "references": [{"path": "../nowhere"}]}
        //- x/y.ts
        //- pkg/z.ts
    "##;
    assert_eq!(
        warnings_of(fixture),
        [
            "pkg/tsconfig.json:1: extends `./missing.json`: no such file; its options are missing",
            "pkg/tsconfig.json:1: extends `@nope/tsconfig`: package config not found; its options are missing",
            "pkg/tsconfig.json:1: extends `../../outside.json`: outside the project root; not read",
            "b.json:3: extends cycle: a.json → b.json → a.json; the cycle is cut here",
            "pkg/tsconfig.json:1: `nowhere/tsconfig.json` does not exist",
        ]
    );
    check(
        fixture,
        &[("x/y.ts", "@x/y", "x/y.ts"), ("pkg/z.ts", "x/y", "ext:x")],
    );
}

#[test]
fn each_file_is_governed_by_the_nearest_config_that_claims_it() {
    let fixture = r##"
        //- tsconfig.json
        {"files": [], "references": [{"path": "./tsconfig.app.json"}, {"path": "./tools"}]}
        //- tsconfig.app.json
        {"compilerOptions": {"paths": {"@/*": ["./src/*"]}}, "include": ["src"], "exclude": ["src/**/*.test.ts"]}
        //- tools/tsconfig.json
        {"compilerOptions": {"paths": {"@/*": ["./lib/*"]}}, "include": ["**/*.ts"]}
        //- src/main.ts
        //- src/main.test.ts
        //- src/App.tsx
        //- src/legacy.js
        //- tools/lib/gen.ts
        //- tools/run.ts
        //- scripts/x.ts
        //- web/jsconfig.json
        {"compilerOptions": {"baseUrl": "."}}
        //- web/tsconfig.json
        {"compilerOptions": {"baseUrl": "src"}}
        //- web/src/a.js
        //- web/b.ts
    "##;
    let model = model(fixture);
    let rows = [
        ("src/main.ts", Some("tsconfig.app.json")),
        ("src/App.tsx", Some("tsconfig.app.json")),
        // Excluded, or JavaScript without allowJs: no config claims it; the nearest governs.
        ("src/main.test.ts", Some("tsconfig.json")),
        ("src/legacy.js", Some("tsconfig.json")),
        ("tools/run.ts", Some("tools/tsconfig.json")),
        ("scripts/x.ts", Some("tsconfig.json")),
        // tsconfig.json wins over jsconfig.json in one folder.
        ("web/src/a.js", Some("web/tsconfig.json")),
    ];
    for (file, expected) in rows {
        assert_eq!(model.config_of(file), expected, "{file}");
    }
    check(
        fixture,
        &[
            ("src/main.ts", "@/App", "src/App.tsx"),
            ("tools/run.ts", "@/gen", "tools/lib/gen.ts"),
            ("web/b.ts", "a", "web/src/a.js"),
        ],
    );
}

#[test]
fn project_references_reach_sources_not_declarations() {
    let fixture = r##"
        //- tsconfig.json
        {"files": [], "references": [{"path": "packages/core"}, {"path": "packages/app"}]}
        //- packages/core/tsconfig.json
        {"compilerOptions": {"composite": true, "outDir": "dist", "rootDir": "src", "declarationDir": "types"}}
        //- packages/core/src/index.ts
        //- packages/core/src/math/add.ts
        //- packages/core/dist/index.js
        //- packages/app/tsconfig.json
        {"compilerOptions": {"outDir": "./out", "paths": {"@core": ["../core/dist/index.d.ts"]}}, "references": [{"path": "../core"}]}
        //- packages/app/src/main.ts
        //- packages/app/src/views/home.ts
    "##;
    check(
        fixture,
        &[
            (
                "packages/app/src/main.ts",
                "../../core/dist/index.js",
                "packages/core/src/index.ts",
            ),
            (
                "packages/app/src/main.ts",
                "../../core/dist/index",
                "packages/core/src/index.ts",
            ),
            (
                "packages/app/src/main.ts",
                "../../core/types/math/add",
                "packages/core/src/math/add.ts",
            ),
            (
                "packages/app/src/main.ts",
                "../../core/dist",
                "packages/core/src/index.ts",
            ),
            (
                "packages/app/src/main.ts",
                "@core",
                "packages/core/src/index.ts",
            ),
            // rootDir defaults to the common folder of the governed sources (src here).
            (
                "packages/app/src/main.ts",
                "../out/views/home.js",
                "packages/app/src/views/home.ts",
            ),
        ],
    );
    assert_eq!(model(fixture).warnings(), &[]);
}

#[test]
fn workspace_packages_resolve_by_name_through_exports() {
    let fixture = r##"
        //- package.json
        {"name": "monorepo", "private": true, "workspaces": {"packages": ["packages/*", "!packages/ignored"]}}
        //- tsconfig.json
        {"compilerOptions": {"moduleResolution": "bundler"}}
        //- packages/toolkit/package.json
        {
          "name": "@libs/toolkit",
          "exports": {
            ".": {"types": "./dist/index.d.ts", "import": "./dist/index.mjs", "require": "./dist/index.cjs"},
            "./strings": {"import": {"types": "./dist/strings.d.mts", "default": "./dist/strings.mjs"}},
            "./*": "./dist/*.js",
            "./internal/*": null,
            "./package.json": "./package.json"
          }
        }
        //- packages/toolkit/tsconfig.json
        {"compilerOptions": {"outDir": "dist", "rootDir": "src"}}
        //- packages/toolkit/src/index.ts
        //- packages/toolkit/src/strings.ts
        //- packages/toolkit/src/format/date.ts
        //- packages/toolkit/src/internal/secret.ts
        //- packages/ui/package.json
        {"name": "@libs/ui", "main": "./lib/index.js", "types": "./lib/index.d.ts"}
        //- packages/ui/src/index.tsx
        //- packages/ui/src/Button.tsx
        //- packages/cli/package.json
        {"name": "cli", "exports": "./build/esm/main.js"}
        //- packages/cli/src/main.ts
        //- packages/ignored/package.json
        {"name": "ignored"}
        //- packages/ignored/index.ts
        //- apps/site/main.ts
    "##;
    check(
        fixture,
        &[
            (
                "apps/site/main.ts",
                "@libs/toolkit",
                "packages/toolkit/src/index.ts",
            ),
            (
                "apps/site/main.ts",
                "@libs/toolkit/strings",
                "packages/toolkit/src/strings.ts",
            ),
            (
                "apps/site/main.ts",
                "@libs/toolkit/format/date",
                "packages/toolkit/src/format/date.ts",
            ),
            (
                "apps/site/main.ts",
                "@libs/toolkit/internal/secret",
                "?not-exported",
            ),
            (
                "apps/site/main.ts",
                "@libs/toolkit/package.json",
                "?missing",
            ),
            // No exports: main/types, mapped to src/ by the same relative path.
            ("apps/site/main.ts", "@libs/ui", "packages/ui/src/index.tsx"),
            (
                "apps/site/main.ts",
                "@libs/ui/src/Button",
                "packages/ui/src/Button.tsx",
            ),
            (
                "apps/site/main.ts",
                "@libs/ui/lib/Button.js",
                "packages/ui/src/Button.tsx",
            ),
            // Two leading folders of build output are dropped when mapping to src/.
            ("apps/site/main.ts", "cli", "packages/cli/src/main.ts"),
            ("apps/site/main.ts", "cli/other", "?not-exported"),
            // Negated workspace globs leave the package out: it is a dependency like any other.
            ("apps/site/main.ts", "ignored", "ext:ignored"),
        ],
    );
    let model = model(fixture);
    let packages: Vec<_> = model
        .packages()
        .map(|p| (p.name, p.module, p.folder))
        .collect();
    assert_eq!(
        packages,
        [
            ("cli", "packages", "packages/cli"),
            ("@libs/toolkit", "packages", "packages/toolkit"),
            ("@libs/ui", "packages", "packages/ui"),
        ]
    );
}

#[test]
fn module_resolution_modes_choose_conditions_and_fields() {
    let fixture = r##"
        //- package.json
        {"workspaces": ["libs/*", "apps/*"]}
        //- libs/dual/package.json
        {
          "name": "dual",
          "main": "./src/legacy.ts",
          "exports": {
            ".": {"node": {"import": "./src/node-esm.ts", "require": "./src/node-cjs.ts"}, "import": "./src/esm.ts", "require": "./src/cjs.ts", "default": "./src/default.ts"},
            "./custom": {"source": "./src/source.ts", "default": "./src/default.ts"}
          }
        }
        //- libs/dual/src/legacy.ts
        //- libs/dual/src/node-esm.ts
        //- libs/dual/src/node-cjs.ts
        //- libs/dual/src/esm.ts
        //- libs/dual/src/cjs.ts
        //- libs/dual/src/default.ts
        //- libs/dual/src/source.ts
        //- libs/exports-only/package.json
        {"name": "exports-only", "exports": {".": "./src/index.ts"}}
        //- libs/exports-only/src/index.ts
        //- apps/esm/package.json
        {"name": "esm-app", "type": "module"}
        //- apps/esm/tsconfig.json
        {"compilerOptions": {"module": "nodenext"}}
        //- apps/esm/main.ts
        //- apps/esm/legacy.cts
        //- apps/cjs/package.json
        {"name": "cjs-app"}
        //- apps/cjs/tsconfig.json
        {"compilerOptions": {"moduleResolution": "Node16"}}
        //- apps/cjs/main.ts
        //- apps/cjs/modern.mts
        //- apps/bundled/tsconfig.json
        {"compilerOptions": {"moduleResolution": "bundler", "customConditions": ["source"]}}
        //- apps/bundled/main.ts
        //- apps/old/tsconfig.json
        {"compilerOptions": {"module": "commonjs"}}
        //- apps/old/main.ts
        //- apps/classic/tsconfig.json
        {"compilerOptions": {"module": "esnext", "moduleResolution": "classic"}}
        //- apps/classic/main.ts
        //- apps/none/main.ts
    "##;
    check(
        fixture,
        &[
            ("apps/esm/main.ts", "dual", "libs/dual/src/node-esm.ts"),
            ("apps/esm/legacy.cts", "dual", "libs/dual/src/node-cjs.ts"),
            ("apps/cjs/main.ts", "dual", "libs/dual/src/node-cjs.ts"),
            ("apps/cjs/modern.mts", "dual", "libs/dual/src/node-esm.ts"),
            ("apps/bundled/main.ts", "dual", "libs/dual/src/esm.ts"),
            (
                "apps/bundled/main.ts",
                "dual/custom",
                "libs/dual/src/source.ts",
            ),
            (
                "apps/esm/main.ts",
                "dual/custom",
                "libs/dual/src/default.ts",
            ),
            // node10 reads `main` and ignores `exports`...
            ("apps/old/main.ts", "dual", "libs/dual/src/legacy.ts"),
            ("apps/classic/main.ts", "dual", "libs/dual/src/legacy.ts"),
            // ...unless the package has nothing else.
            (
                "apps/old/main.ts",
                "exports-only",
                "libs/exports-only/src/index.ts",
            ),
            // Without a config: bundler.
            ("apps/none/main.ts", "dual", "libs/dual/src/esm.ts"),
        ],
    );
}

#[test]
fn a_package_importing_itself_reaches_its_published_declarations_when_they_are_on_disk() {
    // The checker resolves a self-import through `exports` to the first target that exists:
    // a built package's declarations. The build is a separate copy of the code, so the
    // import is external; with no build on disk it reaches the sources.
    let built = r##"
        //- package.json
        {"name": "@acme/kit", "exports": {
            ".": {"types": "./dist/index.d.mts", "default": "./dist/kit.mjs"},
            "./query": {"import": "./dist/query/index.mjs"},
            "./extra": "./dist/extra.js"
        }}
        //- dist/index.d.mts
        //- dist/query/index.d.mts
        //- src/index.ts
        //- src/query/index.ts
        //- src/query/rtkImports.ts
        //- src/extra.ts
    "##;
    check(
        built,
        &[
            ("src/query/rtkImports.ts", "@acme/kit", "ext:@acme/kit"),
            (
                "src/query/rtkImports.ts",
                "@acme/kit/query",
                "ext:@acme/kit",
            ),
            // No declaration beside dist/extra.js: the sources, as before.
            ("src/query/rtkImports.ts", "@acme/kit/extra", "src/extra.ts"),
            ("src/query/rtkImports.ts", "./index", "src/query/index.ts"),
        ],
    );
    let unbuilt = r##"
        //- package.json
        {"name": "@acme/kit", "types": "dist/index.d.ts"}
        //- src/index.ts
        //- src/query/rtkImports.ts
    "##;
    check(
        unbuilt,
        &[("src/query/rtkImports.ts", "@acme/kit", "src/index.ts")],
    );
    let workspace = r##"
        //- package.json
        {"name": "root", "workspaces": ["packages/*"]}
        //- packages/kit/package.json
        {"name": "@acme/kit", "types": "dist/index.d.ts"}
        //- packages/kit/dist/index.d.ts
        //- packages/kit/src/index.ts
        //- packages/kit/src/self.ts
        //- packages/app/package.json
        {"name": "@acme/app"}
        //- packages/app/src/main.ts
    "##;
    check(
        workspace,
        &[
            // Another workspace package reaches the sources, as an editor does.
            (
                "packages/app/src/main.ts",
                "@acme/kit",
                "packages/kit/src/index.ts",
            ),
            ("packages/kit/src/self.ts", "@acme/kit", "ext:@acme/kit"),
        ],
    );
}

#[test]
fn a_package_importing_itself_through_a_wildcard_export_reaches_the_declarations_it_lands_on() {
    // effect's `"./*": "./dist/*.js"`, imported as `effect/Cause` from its own sources: the
    // checker lands on `dist/Cause.d.ts`, beside the emitted file the pattern names. A name
    // without a built declaration reaches the sources; a pattern written with the declaration
    // extension matches its declarations directly.
    let built = r##"
        //- package.json
        {"name": "effect", "exports": {
            "./*": "./dist/*.js",
            "./typed/*": {"types": "./types/*.d.ts", "default": "./lib/*.js"},
            "./internal/*": null
        }}
        //- dist/Cause.d.ts
        //- dist/internal/core.d.ts
        //- dist/nested/Deep.d.ts
        //- types/Typed.d.ts
        //- src/Cause.ts
        //- src/Fresh.ts
        //- src/nested/Deep.ts
        //- src/typed/Typed.ts
        //- src/internal/core.ts
        //- src/Runtime.ts
    "##;
    check(
        built,
        &[
            ("src/Runtime.ts", "effect/Cause", "ext:effect"),
            ("src/Runtime.ts", "effect/nested/Deep", "ext:effect"),
            ("src/Runtime.ts", "effect/typed/Typed", "ext:effect"),
            ("src/Runtime.ts", "effect/Fresh", "src/Fresh.ts"),
            // `"./internal/*": null` still hides what the wildcard would reach.
            ("src/Runtime.ts", "effect/internal/core", "?not-exported"),
        ],
    );
}

#[test]
fn package_imports_map_hash_specifiers() {
    let fixture = r##"
        //- pnpm-workspace.yaml
        packages:
          - "services/*"
          - 'shared/**'
        //- services/billing/package.json
        {
          "name": "@acme/billing",
          "type": "module",
          "imports": {
            "#internal/*": "./src/internal/*.js",
            "#config": {"types": "./src/config.d.ts", "default": "./dist/config.js"},
            "#db": "@acme/db",
            "#hidden/*": null
          }
        }
        //- services/billing/tsconfig.json
        {"compilerOptions": {"module": "nodenext", "outDir": "dist"}, "include": ["src"]}
        //- services/billing/src/index.ts
        //- services/billing/src/config.ts
        //- services/billing/src/internal/ledger.ts
        //- services/billing/src/nested/deep.ts
        //- shared/data/db/package.json
        {"name": "@acme/db", "exports": {".": "./src/index.ts"}}
        //- shared/data/db/src/index.ts
    "##;
    check(
        fixture,
        &[
            (
                "services/billing/src/index.ts",
                "#internal/ledger",
                "services/billing/src/internal/ledger.ts",
            ),
            (
                "services/billing/src/nested/deep.ts",
                "#internal/ledger",
                "services/billing/src/internal/ledger.ts",
            ),
            (
                "services/billing/src/index.ts",
                "#config",
                "services/billing/src/config.ts",
            ),
            (
                "services/billing/src/index.ts",
                "#db",
                "shared/data/db/src/index.ts",
            ),
            (
                "services/billing/src/index.ts",
                "#hidden/x",
                "?not-exported",
            ),
            ("services/billing/src/index.ts", "#nope", "?not-exported"),
            (
                "shared/data/db/src/index.ts",
                "#internal/ledger",
                "?not-exported",
            ),
            (
                "services/billing/src/index.ts",
                "@acme/db",
                "shared/data/db/src/index.ts",
            ),
            // Self-reference by the package's own name.
            (
                "services/billing/src/index.ts",
                "@acme/billing",
                "services/billing/src/index.ts",
            ),
        ],
    );
    let model = model(fixture);
    let modules: Vec<_> = model.packages().map(|p| (p.name, p.module)).collect();
    assert_eq!(
        modules,
        [("@acme/billing", "services"), ("@acme/db", "shared")]
    );
}

#[test]
fn packages_and_modules_of_files() {
    let fixture = r##"
        //- package.json
        {"name": "root", "workspaces": ["libs/*", "modules/*"]}
        //- libs/toolkit/package.json
        {"name": "@libs/toolkit"}
        //- libs/toolkit/src/helpers.ts
        //- libs/toolkit/src/esm/package.json
        {"type": "module"}
        //- libs/toolkit/src/esm/x.ts
        //- modules/app/package.json
        {"name": "app", "workspaces": ["packages/*"]}
        //- modules/app/packages/shared/package.json
        {"name": "@app/shared"}
        //- modules/app/packages/shared/src/types.ts
        //- modules/app/packages/frontend/package.json
        {"name": "@app/frontend"}
        //- modules/app/packages/frontend/src/App.ts
        //- modules/app/app.ts
        //- tools/demo/package.json
        {"name": "demo"}
        //- tools/demo/run.ts
        //- scripts/build.ts
    "##;
    let model = model(fixture);
    let rows = [
        (
            "libs/toolkit/src/helpers.ts",
            ("@libs/toolkit", "libs", "libs/toolkit"),
        ),
        (
            "libs/toolkit/src/esm/x.ts",
            ("@libs/toolkit", "libs", "libs/toolkit"),
        ),
        (
            "modules/app/packages/shared/src/types.ts",
            (
                "@app/shared",
                "modules/app/packages",
                "modules/app/packages/shared",
            ),
        ),
        ("modules/app/app.ts", ("app", "modules", "modules/app")),
        ("tools/demo/run.ts", ("demo", "tools/demo", "tools/demo")),
        ("scripts/build.ts", ("root", ".", ".")),
    ];
    for (file, (name, module, folder)) in rows {
        let package = model.package_of(file);
        assert_eq!(
            (package.name, package.module, package.folder),
            (name, module, folder),
            "{file}"
        );
    }
    check(
        fixture,
        &[
            (
                "modules/app/packages/frontend/src/App.ts",
                "@app/shared/src/types",
                "modules/app/packages/shared/src/types.ts",
            ),
            (
                "modules/app/packages/frontend/src/App.ts",
                "@libs/toolkit/src/helpers",
                "libs/toolkit/src/helpers.ts",
            ),
            ("modules/app/app.ts", "demo", "ext:demo"),
        ],
    );
    assert_eq!(model.warnings(), &[]);
}

#[test]
fn ts_graph_mcp_config_assigns_packages_and_modules() {
    let fixture = r##"
        //- ts-graph-mcp.config.json
        {
          "modules": [
            {"name": "core", "packages": [{"name": "domain", "tsconfig": "./packages/domain/tsconfig.json"}]},
            {"name": "web", "packages": [
              {"name": "frontend", "tsconfig": "./apps/web/tsconfig.json"},
              {"name": "ghost", "tsconfig": "./apps/ghost/tsconfig.json"}
            ]}
          ],
          "storage": {"type": "sqlite"}
        }
        //- packages/domain/package.json
        {"name": "@acme/domain"}
        //- packages/domain/tsconfig.json
        {"include": ["src"]}
        //- packages/domain/src/user.ts
        //- packages/domain/scripts/seed.ts
        //- apps/web/tsconfig.app.json
        {"include": ["src"]}
        //- apps/web/tsconfig.json
        {"files": [], "references": [{"path": "./tsconfig.app.json"}]}
        //- apps/web/src/main.ts
    "##;
    let model = model(fixture);
    let rows = [
        ("packages/domain/src/user.ts", ("domain", "core")),
        // Not claimed by the assigned tsconfig: back to package.json.
        (
            "packages/domain/scripts/seed.ts",
            ("@acme/domain", "packages/domain"),
        ),
        // The assigned tsconfig claims nothing itself (files: []): nothing assigned.
        ("apps/web/src/main.ts", ("", ".")),
    ];
    for (file, (name, module)) in rows {
        let package = model.package_of(file);
        assert_eq!((package.name, package.module), (name, module), "{file}");
    }
    assert_eq!(
        warnings_of(fixture),
        [
            "ts-graph-mcp.config.json:6: tsconfig `./apps/ghost/tsconfig.json` does not exist; package `ghost` is ignored"
        ]
    );
    let flat = "//- ts-graph-mcp.config.json\n{\"packages\": [{\"name\": \"api\", \"tsconfig\": \"tsconfig.json\"}]}\n//- tsconfig.json\n{}\n//- src/a.ts\n";
    let flat_model = self::model(flat);
    let package = flat_model.package_of("src/a.ts");
    assert_eq!(
        (package.name, package.module, package.folder),
        ("api", "main", ".")
    );
}

#[test]
fn broken_configs_warn_with_file_and_line() {
    let fixture = r##"
        //- package.json
        {"name": "root", "workspaces": ["packages/*"]}
        //- packages/a/package.json
        {
          "name": "dup",
        }
        //- packages/b/package.json
        {"name": "dup"}
        //- packages/c/package.json
        {
          "name": "dup"
        }
        //- packages/a/src/w.ts
        //- packages/b/src/x.ts
        //- packages/c/src/y.ts
        //- tsconfig.json
        {
          "compilerOptions": {
            "paths": {
              "@gone/*": ["./gone/*"],
              "@here/*": ["./packages/*"],
              "single": ["./nothing/index.ts"]
            }
          }
          "include": ["src"]
        }
        //- pnpm-workspace.yaml
        packages:
          - a
         - : [
        //- ts-graph-mcp.config.ts
        export default {}
    "##;
    assert_eq!(
        warnings_of(fixture),
        [
            "packages/a/package.json:3: invalid JSON: trailing comma; the package is treated as unnamed",
            "pnpm-workspace.yaml:3: invalid YAML: while parsing a block mapping, did not find expected key; no pnpm workspace packages",
            "packages/c/package.json:2: package name `dup` is also claimed by packages/b/package.json; imports of it resolve there",
            "tsconfig.json:8: invalid JSON: Expected comma; read as far as possible",
            "ts-graph-mcp.config.ts: is not read (only ts-graph-mcp.config.json is); packages and modules come from package.json",
            "tsconfig.json:4: paths `@gone/*`: target `gone/*` matches no source file",
            "tsconfig.json:6: paths `single`: target `nothing/index.ts` matches no source file",
        ]
    );
    check(
        fixture,
        &[("packages/c/src/y.ts", "dup/src/x", "packages/b/src/x.ts")],
    );
    // An unreadable package.json still bounds its package: an unnamed one.
    let model = model(fixture);
    let broken = model.package_of("packages/a/src/w.ts");
    assert_eq!(
        (broken.name, broken.module, broken.folder),
        ("", "packages", "packages/a")
    );
    let paths = r##"
        //- tsconfig.json
        {
          "compilerOptions": {
            "paths": {
              "@gone/*": ["./gone/*"],
              "@here/*": ["./packages/*"],
              "single": ["./nothing/index.ts"],
              "@mods/*": ["./node_modules/*"]
            }
          }
        }
        //- packages/b/src/x.ts
    "##;
    assert_eq!(
        warnings_of(paths),
        [
            "tsconfig.json:4: paths `@gone/*`: target `gone/*` matches no source file",
            "tsconfig.json:6: paths `single`: target `nothing/index.ts` matches no source file",
        ]
    );
}

/// Confinement (issue 6.2): configuration reached through a symlink that leaves the project
/// root is not read, and a warning says so; symlinks that stay inside are followed.
#[cfg(unix)]
#[test]
fn load_reads_nothing_outside_the_root_through_symlinks() {
    use std::fs;
    use std::os::unix::fs::symlink;

    let temp = tempfile::tempdir().unwrap();
    let outside = temp.path().join("outside");
    let root = temp.path().join("project");
    let write = |path: &std::path::Path, text: &str| {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write(
        &outside.join("package.json"),
        r#"{"name": "secret-outside"}"#,
    );
    write(
        &outside.join("base.json"),
        r#"{"compilerOptions": {"baseUrl": "/"}}"#,
    );
    write(
        &outside.join("cfg/tsconfig.json"),
        r#"{"compilerOptions": {"baseUrl": "."}}"#,
    );
    write(
        &root.join("package.json"),
        r#"{"name": "proj", "workspaces": ["packages/*"]}"#,
    );
    write(&root.join("shared/c.json"), r#"{"name": "c"}"#);
    write(
        &root.join("tsconfig.json"),
        r#"{"extends": "./linked-base.json"}"#,
    );
    write(
        &root.join("packages/b/tsconfig.json"),
        r#"{"extends": "@cfg/base"}"#,
    );
    fs::create_dir_all(root.join("packages/a")).unwrap();
    fs::create_dir_all(root.join("packages/c")).unwrap();
    fs::create_dir_all(root.join("node_modules/@cfg")).unwrap();
    symlink(
        outside.join("package.json"),
        root.join("packages/a/package.json"),
    )
    .unwrap();
    symlink("../../shared/c.json", root.join("packages/c/package.json")).unwrap();
    symlink(outside.join("base.json"), root.join("linked-base.json")).unwrap();
    symlink(outside.join("cfg"), root.join("node_modules/@cfg/base")).unwrap();
    let files = [
        "packages/a/src/x.ts",
        "packages/b/src/y.ts",
        "packages/c/src/z.ts",
    ];
    for file in files {
        write(&root.join(file), "export const x = 1;\n");
    }

    let model = ProjectModel::load(&root, &files);
    let warnings: Vec<String> = model.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [
            "packages/a/package.json: links outside the project root; not read",
            "packages/b/tsconfig.json:1: extends `@cfg/base`: resolves outside the project root; not read",
            "tsconfig.json:1: extends `./linked-base.json`: resolves outside the project root; not read",
        ]
    );
    assert_eq!(model.package_of("packages/a/src/x.ts").name, "proj");
    assert_eq!(model.package_of("packages/c/src/z.ts").name, "c");
    let names: Vec<&str> = model.packages().map(|p| p.name).collect();
    assert_eq!(names, ["c"]);

    // The files the source walk found are read without resolving their paths: that reads
    // what resolving them would, and nothing outside the root (the walk lists no link).
    let configs: Vec<String> = (crate::walk::walk(&root, u64::MAX).configs.into_iter())
        .map(|config| config.relative)
        .collect();
    assert!(configs.contains(&"tsconfig.json".to_owned()), "{configs:?}");
    assert!(!configs.contains(&"packages/a/package.json".to_owned()));
    let listed = ProjectModel::load_listed(&root, &files, configs.clone());
    let walked = ProjectModel::load_walked(&root, &files, configs);
    assert_eq!(walked.fingerprint(), listed.fingerprint());
    assert_eq!(walked.warnings(), listed.warnings());
    let names = |model: &ProjectModel| -> Vec<String> {
        model.packages().map(|p| p.name.to_owned()).collect()
    };
    assert_eq!(names(&walked), names(&listed));
}

#[test]
fn root_dirs_merge_folders_for_relative_imports() {
    let fixture = r##"
        //- tsconfig.json
        {"compilerOptions": {"rootDirs": ["src", "generated/src"]}}
        //- src/views/main.ts
        //- generated/src/views/templates/card.ts
        //- generated/src/i18n.ts
    "##;
    check(
        fixture,
        &[
            (
                "src/views/main.ts",
                "./templates/card",
                "generated/src/views/templates/card.ts",
            ),
            ("src/views/main.ts", "../i18n.js", "generated/src/i18n.ts"),
            ("src/views/main.ts", "./nope", "?missing"),
        ],
    );
}

#[test]
fn lerna_and_recursive_globs_declare_workspaces() {
    let fixture = r##"
        //- lerna.json
        {"version": "independent", "packages": ["packages/**"]}
        //- package.json
        {"name": "lerna-root", "private": true}
        //- packages/core/package.json
        {"name": "@l/core", "main": "index.js"}
        //- packages/core/index.js
        //- packages/plugins/auth/package.json
        {"name": "@l/auth", "main": "./lib/auth.js"}
        //- packages/plugins/auth/lib/auth.js
        //- packages/plugins/auth/test/auth.test.js
    "##;
    check(
        fixture,
        &[
            (
                "packages/plugins/auth/lib/auth.js",
                "@l/core",
                "packages/core/index.js",
            ),
            (
                "packages/core/index.js",
                "@l/auth",
                "packages/plugins/auth/lib/auth.js",
            ),
            (
                "packages/plugins/auth/test/auth.test.js",
                "../lib/auth",
                "packages/plugins/auth/lib/auth.js",
            ),
        ],
    );
    let model = model(fixture);
    let modules: Vec<_> = model.packages().map(|p| (p.name, p.module)).collect();
    assert_eq!(modules, [("@l/core", "packages"), ("@l/auth", "packages")]);
}

#[test]
fn jsconfig_allows_js_and_out_dir_is_excluded_by_default() {
    let fixture = r##"
        //- jsconfig.json
        {"compilerOptions": {"baseUrl": "src", "outDir": "out"}}
        //- src/app.js
        //- src/lib/util.js
        //- out/app.js
        //- api/tsconfig.json
        {"compilerOptions": {"outDir": "build"}, "exclude": []}
        //- api/index.ts
        //- api/build/index.ts
    "##;
    let model = model(fixture);
    assert_eq!(model.config_of("src/app.js"), Some("jsconfig.json"));
    // Excluded by default (the outDir), so no config claims it: the nearest governs.
    assert_eq!(model.config_of("out/app.js"), Some("jsconfig.json"));
    assert_eq!(
        model.config_of("api/build/index.ts"),
        Some("api/tsconfig.json")
    );
    check(
        fixture,
        &[
            ("src/app.js", "lib/util", "src/lib/util.js"),
            // The outDir maps back to the sources: `out/app.js` is the build of `src/app.js`.
            ("src/lib/util.js", "../../out/app.js", "src/app.js"),
        ],
    );
}

#[test]
fn yarn_pnp_is_detected_and_named_when_a_package_config_is_missing() {
    let fixture = r##"
        //- .pnp.cjs
        module.exports = {};
        //- package.json
        {"name": "pnp-root", "workspaces": ["packages/*"]}
        //- tsconfig.json
        {"extends": "@tsconfig/node20/tsconfig.json"}
        //- packages/a/package.json
        {"name": "a", "main": "src/index.ts"}
        //- packages/a/src/index.ts
        //- packages/b/src/main.ts
    "##;
    let model = model(fixture);
    assert!(model.is_pnp());
    assert_eq!(
        warnings_of(fixture),
        [
            "tsconfig.json:1: extends `@tsconfig/node20/tsconfig.json`: package config not found \
             (Yarn PnP keeps packages in its cache, which is not read); its options are missing"
        ]
    );
    check(
        fixture,
        &[("packages/b/src/main.ts", "a", "packages/a/src/index.ts")],
    );
}

#[test]
fn the_model_can_be_shared_across_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<ProjectModel>();
}
