//! One React-style application (`apps/web-0`): a page with its row and details components
//! per entity it shows, the services it builds from its libraries' factories, the `App` shell rendering
//! the pages with JSX, and `main`.

use std::io;

use super::code::{SpecKind, TsFile, close_block, ln, open};
use super::graph::Sampling::Exact;
use super::graph::SymKind::{Component, Function};
use super::hubs::{Hub, ui::REACT_TYPES};
use super::names::APP_KINDS;
use super::plan::{Extra, FieldType, Package, PackageKind};
use super::{Ctx, config};

/// Lines the app's shell files take besides the pages: a base and a share per page.
const SHELL_LINES: u64 = 60;
const SHELL_LINES_PER_PAGE: u64 = 7;

/// Writes app number `number`, with pages until its source lines reach about `budget`.
pub(crate) fn write(ctx: &mut Ctx<'_>, number: usize, budget: u64) -> io::Result<()> {
    let slug = format!("{}-{number}", APP_KINDS[number % APP_KINDS.len()]);
    let deps = vec![
        Hub::Shared.package(),
        Hub::Core.package(),
        Hub::Ui.package(),
    ];
    let app = ctx.packages.len();
    ctx.packages
        .push(Package::new(PackageKind::App, "apps", &slug, false, deps));
    let dir = ctx.packages[app].dir.clone();
    ctx.emit_text(&format!("{dir}/src/env.d.ts"), REACT_TYPES)?;

    let start = ctx.stats.source_lines;
    let mut pages: Vec<usize> = Vec::new();
    loop {
        let shell_lines = SHELL_LINES + SHELL_LINES_PER_PAGE * pages.len() as u64;
        if ctx.stats.source_lines - start + shell_lines >= budget {
            break;
        }
        let Some(entity) = pick_entity(ctx, &pages) else {
            break;
        };
        let library = ctx.entities[entity].package;
        if !ctx.packages[app].deps.contains(&library) {
            ctx.packages[app].deps.push(library);
        }
        page(ctx, app, entity)?;
        pages.push(entity);
    }
    let create_services = services(ctx, app)?;
    let shell = shell(ctx, app, &pages)?;
    main(ctx, app, &create_services, &shell)?;
    config::write_package(ctx, app)
}

/// A random entity not shown yet, if any is left.
fn pick_entity(ctx: &mut Ctx<'_>, shown: &[usize]) -> Option<usize> {
    let total = ctx.entities.len();
    for _ in 0..8 {
        let candidate = ctx.rng.index(total);
        if !shown.contains(&candidate) {
            return Some(candidate);
        }
    }
    (0..total).find(|i| !shown.contains(i))
}

fn service_path(ctx: &Ctx<'_>, entity: usize) -> String {
    let library = &ctx.packages[ctx.entities[entity].package];
    format!(
        "props.services.{}.{}",
        library.camel, ctx.entities[entity].names.camel
    )
}

/// The `{Entity}Row` component at the top of its page's file.
fn row(ctx: &mut Ctx<'_>, f: &mut TsFile, entity: usize) {
    let e = ctx.entities[entity].clone();
    let p = &e.names.pascal;
    open!(f, "export interface {p}RowProps {{");
    ln!(f, "item: {p};");
    ln!(f, "selected: boolean;");
    ln!(f, "onSelect: (id: string) => void;");
    close_block(f);

    ctx.begin(f, &format!("{p}Row"), Component, Exact);
    f.doc(&["One record in a table row: its label, status and report line."]);
    open!(f, "export function {p}Row(props: {p}RowProps) {{");
    let active = ctx.call_api(f, entity, "isActive", "props.item");
    ln!(f, "const active = {active};");
    let label = ctx.call_api(f, entity, "describe", "props.item");
    let line = ctx.call_api(f, entity, "formatLine", "props.item");
    open!(f, "return (");
    open!(f, "<div");
    ln!(
        f,
        "className={{props.selected ? \"row row-selected\" : \"row\"}}"
    );
    ln!(f, "onClick={{() => props.onSelect(props.item.id)}}");
    f.close(">");
    f.indent();
    ln!(f, "<Text value={{{label}}} max={{60}} />");
    ln!(
        f,
        "<Badge label={{props.item.status}} tone={{active ? \"ok\" : \"muted\"}} />"
    );
    ln!(f, "<Text value={{{line}}} muted />");
    f.close("</div>");
    f.close(");");
    close_block(f);
}

/// The `{Entity}Details` panel: every field of the selected record.
fn details(ctx: &mut Ctx<'_>, f: &mut TsFile, entity: usize) {
    let e = ctx.entities[entity].clone();
    let (p, m) = (&e.names.pascal, e.measure);
    open!(f, "export interface {p}DetailsProps {{");
    ln!(f, "item: {p};");
    ln!(f, "onClose: () => void;");
    close_block(f);

    ctx.begin(f, &format!("{p}Details"), Component, Exact);
    f.doc(&["Every field of one record, with its rank."]);
    open!(f, "export function {p}Details(props: {p}DetailsProps) {{");
    let score = ctx.call_api(f, entity, "score", "props.item");
    ln!(f, "const score = {score};");
    let score = ctx.hubs.call(f, "formatNumber", "score");
    let measure = ctx.hubs.call(f, "formatNumber", &format!("props.item.{m}"));
    let updated = ctx.hubs.call(f, "formatTimestamp", "props.item.updatedAt");
    open!(f, "return (");
    open!(
        f,
        "<Card title={{props.item.name}} subtitle={{`score ${{{score}}}`}}>"
    );
    open!(f, "<Stack gap={{1}}>");
    ln!(f, "<Text value={{`Status: ${{props.item.status}}`}} />");
    ln!(f, "<Text value={{`{m}: ${{{measure}}}`}} />");
    for field in &e.fields {
        let (name, value) = (field.name, field.name);
        let shown = match field.ty {
            FieldType::Text => format!("props.item.{value}"),
            FieldType::OptionalText => format!("props.item.{value} ?? \"-\""),
            FieldType::Number => ctx
                .hubs
                .call(f, "formatNumber", &format!("props.item.{value}")),
            FieldType::Flag => format!("props.item.{value} ? \"yes\" : \"no\""),
            FieldType::Tags => format!("props.item.{value}.join(\", \")"),
        };
        ln!(f, "<Text value={{`{name}: ${{{shown}}}`}} muted />");
    }
    ln!(f, "<Text value={{`Updated ${{{updated}}}`}} muted />");
    ln!(
        f,
        "<Button label=\"Close\" tone=\"secondary\" onClick={{props.onClose}} />"
    );
    f.close("</Stack>");
    f.close("</Card>");
    f.close(");");
    close_block(f);
}

/// `src/pages/{Entity}Page.tsx`.
fn page(ctx: &mut Ctx<'_>, app: usize, entity: usize) -> io::Result<()> {
    let e = ctx.entities[entity].clone();
    let (p, w) = (&e.names.pascal, &e.names.words);
    let dir = ctx.packages[app].dir.clone();
    let slug = ctx.packages[app].name.clone();
    let mut f = ctx.file(
        format!("{dir}/src/pages/{p}Page.tsx"),
        &[
            &format!("The {w} page of {slug}: the records with their total, and the actions an"),
            "operator takes on one of them.",
        ],
    );
    let service = service_path(ctx, entity);
    ctx.import_entity(&mut f, entity, "model", p, true);
    f.ty(SpecKind::Relative, "../services", "AppServices");
    f.value(SpecKind::Package, "react", "useMemo");
    f.value(SpecKind::Package, "react", "useState");
    for name in ["Badge", "Button", "Card", "Stack", "Table", "Text"] {
        ctx.hubs.value(&mut f, name);
    }
    row(ctx, &mut f, entity);
    details(ctx, &mut f, entity);
    open!(f, "export interface {p}PageProps {{");
    ln!(f, "services: AppServices;");
    ln!(f, "items: readonly {p}[];");
    close_block(&mut f);

    ctx.begin(&mut f, &format!("{p}Page"), Component, Exact);
    f.doc(&[&format!(
        "Every {w}, live ones only unless asked; actions go through the service."
    )]);
    open!(f, "export function {p}Page(props: {p}PageProps) {{");
    ln!(
        f,
        "const [selectedId, setSelectedId] = useState<string | undefined>(undefined);"
    );
    let toggle = ctx.hubs.call(&mut f, "useToggle", "false");
    ln!(f, "const [showAll, toggleAll] = {toggle};");
    let active = ctx.call_api(&mut f, entity, "isActive", "item");
    open!(f, "const visible = useMemo(");
    ln!(
        f,
        "() => (showAll ? props.items : props.items.filter((item) => {active})),"
    );
    ln!(f, "[props.items, showAll],");
    f.close(");");
    let total = ctx.call_api(&mut f, entity, "total", "visible");
    ln!(f, "const total = useMemo(() => {total}, [visible]);");
    ln!(
        f,
        "const selected = visible.find((item) => item.id === selectedId);"
    );
    let number = ctx.hubs.call(&mut f, "formatNumber", "total");
    let label = ctx.call_api(&mut f, entity, "describe", "selected");
    open!(f, "return (");
    open!(f, "<Stack gap={{2}}>");
    open!(
        f,
        "<Card title=\"{}\" subtitle={{`${{visible.length}} shown`}}>",
        capitalized(w)
    );
    open!(f, "<Table");
    ln!(f, "rows={{visible}}");
    ln!(f, "render={{(item) => (");
    ln!(
        f,
        "  <{p}Row item={{item}} selected={{item.id === selectedId}} onSelect={{setSelectedId}} />"
    );
    ln!(f, ")}}");
    f.close("/>");
    f.close("</Card>");
    ln!(f, "<Text value={{`Total ${{{number}}}`}} />");
    ln!(
        f,
        "{{selected ? <Badge label={{{label}}} tone=\"ok\" /> : null}}"
    );
    ln!(
        f,
        "{{selected ? <{p}Details item={{selected}} onClose={{() => setSelectedId(undefined)}} /> : null}}"
    );
    ln!(
        f,
        "<Button label={{showAll ? \"Live only\" : \"Show all\"}} tone=\"secondary\" onClick={{toggleAll}} />"
    );
    for (role, caption, tone) in [
        ("svc.activate", "Activate", "primary"),
        ("svc.archive", "Archive", "danger"),
    ] {
        open!(f, "<Button");
        ln!(f, "label=\"{caption}\"");
        ln!(f, "tone=\"{tone}\"");
        ln!(f, "disabled={{selected === undefined}}");
        open!(f, "onClick={{() => {{");
        open!(f, "if (selected) {{");
        let call = ctx.call_method(&mut f, &service, entity, role, "selected.id");
        ln!(f, "void {call};");
        f.close("}");
        f.close("}}");
        f.close("/>");
    }
    let refresh = ctx.call_method(&mut f, &service, entity, "svc.listActive", "");
    ln!(
        f,
        "<Button label=\"Refresh\" tone=\"secondary\" onClick={{() => void {refresh}}} />"
    );
    if e.has(Extra::Search) {
        let search = ctx.call_method(&mut f, &service, entity, "svc.search", "\"a\"");
        ln!(
            f,
            "<Button label=\"Search\" tone=\"secondary\" onClick={{() => void {search}}} />"
        );
    }
    if e.dto {
        let export = ctx.call_method(&mut f, &service, entity, "svc.exportCsv", "");
        ln!(
            f,
            "<Button label=\"Export CSV\" tone=\"secondary\" onClick={{() => void {export}}} />"
        );
    }
    f.close("</Stack>");
    f.close(");");
    close_block(&mut f);
    ctx.emit(f)
}

fn capitalized(words: &str) -> String {
    let mut text = words.to_owned();
    if let Some(first) = text.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    text.push_str(" records");
    text
}

/// `src/services.ts`: the services of every library the app uses.
fn services(ctx: &mut Ctx<'_>, app: usize) -> io::Result<super::graph::Callable> {
    let pkg = ctx.packages[app].clone();
    let mut f = ctx.file(
        format!("{}/src/services.ts", pkg.dir),
        &[&format!(
            "The services {} uses, one set per library, sharing one logger.",
            pkg.name
        )],
    );
    let libraries: Vec<usize> = pkg
        .deps
        .iter()
        .copied()
        .filter(|&d| ctx.packages[d].kind == PackageKind::Library)
        .collect();
    f.doc(&["Services by library."]);
    open!(f, "export interface AppServices {{");
    for &lib in &libraries {
        let l = &ctx.packages[lib];
        f.ty(SpecKind::Package, &l.name, &format!("{}Services", l.pascal));
        ln!(f, "{}: {}Services;", l.camel, l.pascal);
    }
    close_block(&mut f);
    let callable = ctx.begin(&mut f, "createAppServices", Function, Exact);
    ctx.hubs.ty(&mut f, "Logger");
    f.doc(&["Builds the services of every library the app uses."]);
    open!(
        f,
        "export function createAppServices(logger: Logger): AppServices {{"
    );
    open!(f, "return {{");
    for &lib in &libraries {
        let l = ctx.packages[lib].clone();
        let Some(factory) = l.factory.clone() else {
            panic!("generator bug: {} has no factory", l.name);
        };
        f.value(SpecKind::Package, &l.name, &factory.name);
        let call = f.call(&factory, "logger");
        ln!(f, "{}: {call},", l.camel);
    }
    f.close("};");
    close_block(&mut f);
    ctx.emit(f)?;
    Ok(callable)
}

/// `src/App.tsx`: a tab per page; only the open one renders.
fn shell(ctx: &mut Ctx<'_>, app: usize, pages: &[usize]) -> io::Result<super::graph::Callable> {
    let pkg = ctx.packages[app].clone();
    let mut f = ctx.file(
        format!("{}/src/App.tsx", pkg.dir),
        &[&format!(
            "The shell of {}: navigation and the open page.",
            pkg.name
        )],
    );
    f.ty(SpecKind::Relative, "./services", "AppServices");
    f.value(SpecKind::Package, "react", "useState");
    for name in ["Button", "Stack"] {
        ctx.hubs.value(&mut f, name);
    }
    open!(f, "export interface AppProps {{");
    ln!(f, "services: AppServices;");
    close_block(&mut f);
    let callable = ctx.begin(&mut f, "App", Component, Exact);
    f.doc(&["Renders the navigation and the page of the open tab."]);
    open!(f, "export function App(props: AppProps) {{");
    let first = pages
        .first()
        .map(|&e| ctx.entities[e].names.kebab.clone())
        .unwrap_or_default();
    ln!(f, "const [tab, setTab] = useState<string>(\"{first}\");");
    open!(f, "return (");
    open!(f, "<Stack gap={{3}}>");
    open!(f, "<nav>");
    for &e in pages {
        let n = ctx.entities[e].names.clone();
        open!(f, "<Button");
        ln!(f, "label=\"{}\"", capitalized(&n.words));
        ln!(
            f,
            "tone={{tab === \"{}\" ? \"primary\" : \"secondary\"}}",
            n.kebab
        );
        ln!(f, "onClick={{() => setTab(\"{}\")}}", n.kebab);
        f.close("/>");
    }
    f.close("</nav>");
    for &e in pages {
        let n = ctx.entities[e].names.clone();
        f.value(
            SpecKind::Relative,
            &format!("./pages/{}Page", n.pascal),
            &format!("{}Page", n.pascal),
        );
        ln!(
            f,
            "{{tab === \"{}\" ? <{}Page services={{props.services}} items={{[]}} /> : null}}",
            n.kebab,
            n.pascal
        );
    }
    f.close("</Stack>");
    f.close(");");
    close_block(&mut f);
    ctx.emit(f)?;
    Ok(callable)
}

/// `src/main.tsx`: builds the services and renders the shell.
fn main(
    ctx: &mut Ctx<'_>,
    app: usize,
    create_services: &super::graph::Callable,
    _shell: &super::graph::Callable,
) -> io::Result<()> {
    let pkg = ctx.packages[app].clone();
    let mut f: TsFile = ctx.file(
        format!("{}/src/main.tsx", pkg.dir),
        &[&format!("Entry point of {}.", pkg.name)],
    );
    f.ty(SpecKind::Package, "react", "ReactElement");
    f.value(SpecKind::Relative, "./App", "App");
    f.value(SpecKind::Relative, "./services", "createAppServices");
    ctx.hubs.value(&mut f, "LogLevel");
    ctx.begin(&mut f, "main", Function, Exact);
    f.doc(&["The root element, with services built for this process."]);
    open!(f, "export function main(): ReactElement {{");
    let logger = ctx.hubs.call(
        &mut f,
        "createLogger",
        &format!("\"{}\", LogLevel.Info", pkg.name),
    );
    ln!(f, "const logger = {logger};");
    let services = f.call(create_services, "logger");
    ln!(f, "const services = {services};");
    ln!(
        f,
        "logger.info(\"started\", {{ libraries: Object.keys(services).length }});"
    );
    ln!(f, "return <App services={{services}} />;");
    close_block(&mut f);
    ctx.emit(f)
}
