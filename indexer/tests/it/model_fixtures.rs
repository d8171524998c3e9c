//! The project model on the fixture projects of `tests/fixtures/`: each is loaded from disk
//! with [`ProjectModel::load`], every import in every source file must resolve (to a file or
//! an external package), the cross-package ones to the file named here, and the warnings
//! must be exactly the ones the fixture's deliberate mistakes cause.

use std::path::{Path, PathBuf};

use tsgraph_indexer::model::{ProjectModel, Resolution};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name)
}

/// The source files of a fixture, as the indexer's walk finds them (no node_modules, no
/// hidden files, no declaration files).
fn source_files(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("fixture folder readable") {
            let path = entry.expect("fixture entry readable").path();
            let name = path
                .file_name()
                .expect("entries have names")
                .to_string_lossy()
                .into_owned();
            if name.starts_with('.') || name == "node_modules" {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else if [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]
                .iter()
                .any(|ext| name.ends_with(ext))
                && !name.ends_with(".d.ts")
            {
                let relative = path
                    .strip_prefix(root)
                    .expect("walked below the root")
                    .to_string_lossy();
                files.push(relative.replace('\\', "/"));
            }
        }
    }
    files.sort();
    files
}

/// The module specifiers of `import … from "x"`, `export … from "x"` and `import "x"`.
fn specifiers(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        if !(line.starts_with("import ") || line.starts_with("export ")) {
            continue;
        }
        let Some(quote_at) = line.rfind(['"', '\'']) else {
            continue;
        };
        let quote = &line[quote_at..=quote_at];
        let Some(open) = line[..quote_at].rfind(quote) else {
            continue;
        };
        let before = line[..open].trim_end();
        if before.ends_with("from") || before == "import" {
            found.push(line[open + 1..quote_at].to_owned());
        }
    }
    found
}

struct Expect<'a> {
    name: &'a str,
    /// (importer, specifier, resolved file) for every import that crosses a package.
    cross: &'a [(&'a str, &'a str, &'a str)],
    /// (importer, specifier, package) for the external imports.
    external: &'a [(&'a str, &'a str, &'a str)],
    /// The warnings, as displayed.
    warnings: &'a [&'a str],
    /// (file, package name, module) for a few files.
    packages: &'a [(&'a str, &'a str, &'a str)],
}

fn check(expect: &Expect<'_>) {
    let root = fixture(expect.name);
    let files = source_files(&root);
    assert!(
        files.len() >= 5,
        "{}: fixture not found or too small",
        expect.name
    );
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    let model = ProjectModel::load(&root, &refs);
    let mut failures = Vec::new();

    let warnings: Vec<String> = model.warnings().iter().map(ToString::to_string).collect();
    if warnings != expect.warnings {
        failures.push(format!("warnings: {warnings:#?}"));
    }
    let mut imports = 0;
    for file in &files {
        let text = std::fs::read_to_string(root.join(file)).expect("fixture source readable");
        for specifier in specifiers(&text) {
            imports += 1;
            let resolution = model.resolve(file, &specifier);
            let expected = expect
                .cross
                .iter()
                .find(|(f, s, _)| f == file && *s == specifier)
                .map(|(_, _, target)| Resolution::File((*target).to_owned()))
                .or_else(|| {
                    let (_, _, package) = expect
                        .external
                        .iter()
                        .find(|(f, s, _)| f == file && *s == specifier)?;
                    Some(Resolution::External {
                        package: (*package).to_owned(),
                    })
                });
            match (&resolution, expected) {
                (got, Some(expected)) if *got != expected => {
                    failures.push(format!(
                        "{file}: {specifier:?} → {got:?}, expected {expected:?}"
                    ));
                }
                (Resolution::File(target), None) => {
                    // Not listed: it must stay inside the importer's package.
                    if model.package_of(target).folder != model.package_of(file).folder {
                        failures.push(format!(
                            "{file}: {specifier:?} → {target} crosses packages but is not listed"
                        ));
                    }
                }
                (Resolution::File(_), Some(_)) => {}
                (other, None) => {
                    failures.push(format!("{file}: {specifier:?} → {other:?}, not listed"))
                }
                (_, Some(_)) => {}
            }
        }
    }
    let listed = expect.cross.len() + expect.external.len();
    for (file, specifier, _) in expect.cross.iter().chain(expect.external) {
        if !files.iter().any(|f| f == file) {
            failures.push(format!(
                "listed importer {file} ({specifier}) is not a source file"
            ));
        }
    }
    for (file, name, module) in expect.packages {
        let package = model.package_of(file);
        if (package.name, package.module) != (*name, *module) {
            failures.push(format!(
                "{file}: package ({}, {}), expected ({name}, {module})",
                package.name, package.module
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}:\n{}",
        expect.name,
        failures.join("\n")
    );
    assert!(
        imports >= listed,
        "{}: {imports} imports found, {listed} listed",
        expect.name
    );
}

#[test]
fn paths_alias_with_base_url_and_two_fallback_targets() {
    check(&Expect {
        name: "paths-alias",
        cross: &[
            (
                "src/services/orders.ts",
                "@shared/format",
                "src/shared/format.ts",
            ),
            (
                "src/services/orders.ts",
                "@shared/ids",
                "generated/shared/ids.ts",
            ),
            (
                "src/services/invoices.ts",
                "@shared/format",
                "src/shared/format.ts",
            ),
            (
                "src/services/invoices.ts",
                "@services/orders",
                "src/services/orders.ts",
            ),
            (
                "src/main.ts",
                "services/invoices",
                "src/services/invoices.ts",
            ),
        ],
        external: &[],
        warnings: &[],
        packages: &[("src/main.ts", "paths-alias-app", ".")],
    });
}

#[test]
fn npm_workspaces_publishing_through_exports_into_dist_reach_src() {
    check(&Expect {
        name: "npm-workspaces",
        cross: &[
            (
                "apps/api/src/server.ts",
                "@libs/logger",
                "packages/logger/src/index.ts",
            ),
            (
                "apps/api/src/server.ts",
                "@libs/toolkit",
                "packages/toolkit/src/index.ts",
            ),
            (
                "apps/api/src/routes/users.ts",
                "@libs/logger",
                "packages/logger/src/index.ts",
            ),
            (
                "apps/api/src/routes/users.ts",
                "@libs/toolkit/strings",
                "packages/toolkit/src/strings.ts",
            ),
            (
                "apps/api/src/routes/users.ts",
                "@libs/toolkit/math",
                "packages/toolkit/src/math.ts",
            ),
        ],
        external: &[("apps/api/src/server.ts", "express", "express")],
        warnings: &[],
        packages: &[
            ("apps/api/src/server.ts", "@apps/api", "apps"),
            (
                "packages/toolkit/src/internal/cache.ts",
                "@libs/toolkit",
                "packages",
            ),
        ],
    });
    let root = fixture("npm-workspaces");
    let files = source_files(&root);
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    let model = ProjectModel::load(&root, &refs);
    assert_eq!(
        format!(
            "{:?}",
            model.resolve("apps/api/src/server.ts", "@libs/toolkit/internal/cache")
        ),
        "Unresolved(NotExported)"
    );
    let packages: Vec<_> = model
        .packages()
        .map(|p| (p.name, p.module, p.folder))
        .collect();
    assert_eq!(
        packages,
        [
            ("@apps/api", "apps", "apps/api"),
            ("@libs/logger", "packages", "packages/logger"),
            ("@libs/toolkit", "packages", "packages/toolkit"),
        ]
    );
}

#[test]
fn pnpm_workspace_with_internal_imports() {
    check(&Expect {
        name: "pnpm-workspace",
        cross: &[
            (
                "services/billing/src/internal/payments.ts",
                "#db",
                "shared/db/src/index.ts",
            ),
            (
                "services/billing/src/internal/ledger.ts",
                "#db",
                "shared/db/src/index.ts",
            ),
            (
                "services/orders/src/checkout.ts",
                "@acme/billing",
                "services/billing/src/index.ts",
            ),
            (
                "services/orders/src/checkout.ts",
                "@acme/db",
                "shared/db/src/index.ts",
            ),
        ],
        external: &[("services/orders/src/checkout.ts", "zod", "zod")],
        warnings: &[],
        packages: &[
            (
                "services/billing/src/internal/ledger.ts",
                "@acme/billing",
                "services",
            ),
            ("shared/db/src/index.ts", "@acme/db", "shared"),
        ],
    });
}

#[test]
fn project_references_resolve_to_sources() {
    check(&Expect {
        name: "project-references",
        cross: &[
            (
                "packages/server/src/signup.ts",
                "../../core/lib/validation",
                "packages/core/src/validation.ts",
            ),
            (
                "packages/server/src/checkout.ts",
                "@refs/core",
                "packages/core/src/index.ts",
            ),
        ],
        external: &[],
        warnings: &[],
        packages: &[("packages/server/src/signup.ts", "@refs/server", "packages")],
    });
}

#[test]
fn extends_chain_through_a_config_package_and_a_cycle() {
    check(&Expect {
        name: "extends-chain",
        cross: &[
            (
                "apps/web/src/page.ts",
                "@chain/util/text",
                "libs/util/src/text.ts",
            ),
            (
                "apps/web/src/page.ts",
                "@chain/util",
                "libs/util/src/index.ts",
            ),
            (
                "apps/legacy/src/report.ts",
                "@chain/util/text",
                "libs/util/src/text.ts",
            ),
        ],
        external: &[],
        warnings: &[
            "apps/legacy/tsconfig.shared.json:4: extends cycle: apps/legacy/tsconfig.json → apps/legacy/tsconfig.shared.json → apps/legacy/tsconfig.json; the cycle is cut here",
        ],
        packages: &[("apps/web/src/widgets/card.ts", "@chain/web", "apps")],
    });
}

#[test]
fn yarn_nested_workspaces_with_a_ts_graph_mcp_config() {
    check(&Expect {
        name: "yarn-nested",
        cross: &[
            (
                "libs/ui/src/Button.ts",
                "@libs/toolkit",
                "libs/toolkit/src/index.ts",
            ),
            (
                "modules/app/packages/shared/src/types.ts",
                "@libs/toolkit",
                "libs/toolkit/src/index.ts",
            ),
            (
                "modules/app/packages/frontend/src/App.ts",
                "@libs/ui",
                "libs/ui/src/index.ts",
            ),
            (
                "modules/app/packages/frontend/src/App.ts",
                "@app/shared",
                "modules/app/packages/shared/src/index.ts",
            ),
            (
                "modules/app/packages/backend/src/api.ts",
                "@libs/toolkit",
                "libs/toolkit/src/index.ts",
            ),
            (
                "modules/app/packages/backend/src/api.ts",
                "@app/shared",
                "modules/app/packages/shared/src/index.ts",
            ),
        ],
        external: &[],
        warnings: &[],
        packages: &[
            ("libs/ui/src/Button.ts", "ui", "libs"),
            ("modules/app/packages/backend/src/api.ts", "backend", "app"),
        ],
    });
    let root = fixture("yarn-nested");
    let model = ProjectModel::load(&root, &[]);
    assert!(model.is_pnp());
    let packages: Vec<_> = model.packages().map(|p| (p.name, p.module)).collect();
    assert_eq!(
        packages,
        [
            ("@libs/toolkit", "libs"),
            ("@libs/ui", "libs"),
            ("@app/root", "modules"),
            ("@app/backend", "modules/app/packages"),
            ("@app/frontend", "modules/app/packages"),
            ("@app/shared", "modules/app/packages"),
        ]
    );
}
