//! `{entity}.repository.ts`: the repository interface services depend on, its in-memory
//! implementation on `BaseRepository`, and sometimes a caching decorator around it and an
//! implementation over the HTTP API.

use std::io;

use super::{module_path, signature};
use crate::monorepo::Ctx;
use crate::monorepo::code::{SpecKind, TsFile, close_block, ln, open};
use crate::monorepo::graph::Sampling::Partial;
use crate::monorepo::graph::SymKind::Method;

pub(super) fn write(ctx: &mut Ctx<'_>, index: usize) -> io::Result<()> {
    let e = ctx.entities[index].clone();
    let (p, w, k) = (&e.names.pascal, &e.names.words, &e.names.kebab);
    let header = [format!("Storage of {w} records.")];
    let mut f = ctx.file(module_path(ctx, &e, "repository"), &[&header[0]]);
    let model = format!("./{k}.model");
    for name in [format!("{p}Id"), p.clone()] {
        f.ty(SpecKind::Relative, &model, &name);
    }
    f.value(SpecKind::Relative, &model, &format!("{p}Status"));

    ctx.hubs.ty(&mut f, "Repository");
    f.doc(&[&format!(
        "Storage of {w} records; services depend on this, never on a class."
    )]);
    open!(
        f,
        "export interface {p}Repository extends Repository<{p}, {p}Id> {{"
    );
    f.doc(&["Records in `status`, in no particular order."]);
    ln!(f, "findByStatus(status: {p}Status): Promise<{p}[]>;");
    ln!(f);
    f.doc(&["Records whose name contains `text`, ignoring case."]);
    ln!(f, "search(text: string): Promise<{p}[]>;");
    close_block(&mut f);

    ctx.hubs.value(&mut f, "BaseRepository");
    f.doc(&[&format!(
        "Keeps {w} records in memory: the default for tests and local runs."
    )]);
    ln!(f, "export class InMemory{p}Repository");
    ln!(f, "  extends BaseRepository<{p}, {p}Id>");
    ln!(f, "  implements {p}Repository");
    open!(f, "{{");
    ln!(f, "readonly name = \"{k}\";");
    ln!(f);
    let class = format!("InMemory{p}Repository");
    ctx.begin(&mut f, &format!("{class}.findByStatus"), Method, Partial);
    open!(f, "findByStatus(status: {p}Status): Promise<{p}[]> {{");
    let list = ctx.hubs.call_on(
        &mut f,
        "this",
        "BaseRepository.list",
        "(item) => item.status === status",
    );
    ln!(f, "return {list};");
    close_block(&mut f);
    ctx.begin(&mut f, &format!("{class}.search"), Method, Partial);
    open!(f, "search(text: string): Promise<{p}[]> {{");
    ln!(f, "const needle = text.toLowerCase();");
    let list = ctx.hubs.call_on(
        &mut f,
        "this",
        "BaseRepository.list",
        "(item) => item.name.toLowerCase().includes(needle)",
    );
    ln!(f, "return {list};");
    close_block(&mut f);
    ctx.begin(&mut f, &format!("{class}.validate"), Method, Partial);
    open!(f, "protected validate(item: {p}): void {{");
    let validate = ctx.call_api(&mut f, index, "validate", "item");
    ln!(f, "{validate};");
    f.close("}");
    close_block(&mut f);

    if e.cached {
        cached(ctx, &mut f, p, w);
    }
    if e.remote {
        remote(ctx, &mut f, p, w, k);
    }
    ctx.emit(f)
}

/// A decorator that answers repeated lookups from an `LruCache`.
fn cached(ctx: &mut Ctx<'_>, f: &mut TsFile, p: &str, w: &str) {
    let class = format!("Cached{p}Repository");
    ctx.hubs.value(f, "LruCache");
    f.doc(&[
        &format!("Answers repeated lookups of {w} records from a cache in front of another"),
        "repository. Writes go through to it, so the cache never holds what it lacks.",
    ]);
    open!(f, "export class {class} implements {p}Repository {{");
    ln!(f, "private readonly cache: LruCache<{p}Id, {p}>;");
    ln!(f);
    signature(
        f,
        "constructor",
        &[
            format!("private readonly inner: {p}Repository"),
            "capacity = 256".to_owned(),
        ],
        " {",
    );
    ln!(f, "this.cache = new LruCache<{p}Id, {p}>(capacity);");
    close_block(f);

    ctx.begin(f, &format!("{class}.findById"), Method, Partial);
    open!(f, "async findById(id: {p}Id): Promise<{p} | undefined> {{");
    let get = ctx.hubs.call_on(f, "this.cache", "LruCache.get", "id");
    ln!(f, "const hit = {get};");
    open!(f, "if (hit) {{");
    ln!(f, "return hit;");
    f.close("}");
    ln!(f, "const found = await this.inner.findById(id);");
    open!(f, "if (found) {{");
    let set = ctx
        .hubs
        .call_on(f, "this.cache", "LruCache.set", "id, found");
    ln!(f, "{set};");
    f.close("}");
    ln!(f, "return found;");
    close_block(f);

    ctx.begin(f, &format!("{class}.list"), Method, Partial);
    open!(
        f,
        "list(filter?: (item: {p}) => boolean): Promise<{p}[]> {{"
    );
    ln!(f, "return this.inner.list(filter);");
    close_block(f);

    ctx.begin(f, &format!("{class}.save"), Method, Partial);
    open!(f, "async save(item: {p}): Promise<{p}> {{");
    ln!(f, "const saved = await this.inner.save(item);");
    let set = ctx
        .hubs
        .call_on(f, "this.cache", "LruCache.set", "saved.id, saved");
    ln!(f, "{set};");
    ln!(f, "return saved;");
    close_block(f);

    ctx.begin(f, &format!("{class}.remove"), Method, Partial);
    open!(f, "async remove(id: {p}Id): Promise<boolean> {{");
    let delete = ctx.hubs.call_on(f, "this.cache", "LruCache.delete", "id");
    ln!(f, "{delete};");
    ln!(f, "return this.inner.remove(id);");
    close_block(f);

    ctx.begin(f, &format!("{class}.count"), Method, Partial);
    open!(f, "count(): Promise<number> {{");
    ln!(f, "return this.inner.count();");
    close_block(f);

    ctx.begin(f, &format!("{class}.findByStatus"), Method, Partial);
    open!(f, "findByStatus(status: {p}Status): Promise<{p}[]> {{");
    ln!(
        f,
        "// Status lists change with every write; caching them would serve stale lists."
    );
    ln!(f, "return this.inner.findByStatus(status);");
    close_block(f);

    ctx.begin(f, &format!("{class}.search"), Method, Partial);
    open!(f, "search(text: string): Promise<{p}[]> {{");
    ln!(f, "return this.inner.search(text);");
    f.close("}");
    close_block(f);
}

/// A repository over the HTTP API, through core's `HttpClient` interface.
fn remote(ctx: &mut Ctx<'_>, f: &mut TsFile, p: &str, w: &str, k: &str) {
    let class = format!("Http{p}Repository");
    ctx.hubs.ty(f, "HttpClient");
    ctx.hubs.value(f, "NotFoundError");
    f.doc(&[
        &format!("Reads and writes {w} records through the HTTP API. Filtering happens here"),
        "because the API has no query language beyond `q`.",
    ]);
    open!(f, "export class {class} implements {p}Repository {{");
    signature(
        f,
        "constructor",
        &[
            "private readonly http: HttpClient".to_owned(),
            format!("private readonly base = \"/api/{k}s\""),
        ],
        " {}",
    );
    f.outdent();
    ln!(f);

    ctx.begin(f, &format!("{class}.findById"), Method, Partial);
    open!(f, "async findById(id: {p}Id): Promise<{p} | undefined> {{");
    open!(f, "try {{");
    ln!(
        f,
        "return await this.http.get<{p}>(`${{this.base}}/${{encodeURIComponent(id)}}`);"
    );
    f.close("} catch (error) {");
    f.indent();
    ln!(f, "// A missing record is an answer here, not a failure.");
    open!(f, "if (error instanceof NotFoundError) {{");
    ln!(f, "return undefined;");
    f.close("}");
    ln!(f, "throw error;");
    f.close("}");
    close_block(f);

    let list = ctx
        .graph
        .define(&f.path, &format!("{class}.list"), Method, Partial);
    f.enter(list.sym);
    open!(
        f,
        "async list(filter?: (item: {p}) => boolean): Promise<{p}[]> {{"
    );
    ln!(f, "const items = await this.http.get<{p}[]>(this.base);");
    ln!(
        f,
        "return filter ? items.filter((item) => filter(item)) : items;"
    );
    close_block(f);

    ctx.begin(f, &format!("{class}.save"), Method, Partial);
    open!(f, "save(item: {p}): Promise<{p}> {{");
    ln!(
        f,
        "return this.http.put<{p}>(`${{this.base}}/${{encodeURIComponent(item.id)}}`, item);"
    );
    close_block(f);

    ctx.begin(f, &format!("{class}.remove"), Method, Partial);
    open!(f, "async remove(id: {p}Id): Promise<boolean> {{");
    ln!(
        f,
        "await this.http.delete(`${{this.base}}/${{encodeURIComponent(id)}}`);"
    );
    ln!(f, "return true;");
    close_block(f);

    ctx.begin(f, &format!("{class}.count"), Method, Partial);
    open!(f, "async count(): Promise<number> {{");
    let all = f.call_on("this", &list, "");
    ln!(f, "const items = await {all};");
    ln!(f, "return items.length;");
    close_block(f);

    ctx.begin(f, &format!("{class}.findByStatus"), Method, Partial);
    open!(f, "findByStatus(status: {p}Status): Promise<{p}[]> {{");
    let filtered = f.call_on("this", &list, "(item) => item.status === status");
    ln!(f, "return {filtered};");
    close_block(f);

    ctx.begin(f, &format!("{class}.search"), Method, Partial);
    open!(f, "search(text: string): Promise<{p}[]> {{");
    ln!(
        f,
        "return this.http.get<{p}[]>(`${{this.base}}?q=${{encodeURIComponent(text)}}`);"
    );
    f.close("}");
    close_block(f);
}
