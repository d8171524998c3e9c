//! The MCP server (`tsgraph mcp`): the graph tools over stdio, answered from a
//! [`LiveProject`] that a file watcher keeps fresh. Nothing but protocol goes to stdout; logs
//! go to stderr.

use std::io::Write;
use std::sync::Arc;

use bytes::{BufMut, BytesMut};
use parking_lot::Mutex;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ErrorData, ServerHandler, ServiceExt, tool, tool_handler, tool_router};

use tsgraph::Error;
use tsgraph::LiveProject;
use tsgraph::args::{
    ArgError, ChangeArgs, DepsArgs, FileArgs, NeighborArgs, PathArgs, SearchArgs, SymbolTraversal,
};
use tsgraph::{Format, Output, QueryRequest};

const INSTRUCTIONS: &str = "tsgraph answers questions about this TypeScript/JavaScript \
project's code graph exactly, from the type-resolved call graph: who calls a symbol, what it \
calls, what a change impacts, how one symbol reaches another, what is around it, what a file \
declares. Node IDs are `{path from the project root}:{symbol path}` (`src/db/user.ts:saveUser`, \
`src/services/UserService.ts:UserService.save`); a bare or dotted name works when it is unique, \
and `file` narrows it. Answers are TOON by default (the fewest tokens); names and files are \
inside the IDs. Answers fit a token budget (maxTokens, default 2000): a larger one gives its \
totals, the nearest results, the files of what it left out and `next` (call again with its \
offset and generation). Every answer ends with a completeness statement (TOON: `complete: \
true|false`). The graph follows the files on disk while the server runs.";

/// The MCP server's tools over one live project.
#[derive(Clone)]
pub struct GraphServer {
    live: Arc<LiveProject>,
    /// Answer buffers kept between tool calls: an answer is written into one that already
    /// has the room (calls run concurrently, one buffer each).
    buffers: Arc<Mutex<Vec<BytesMut>>>,
    tool_router: ToolRouter<GraphServer>,
}

/// How many answer buffers the server keeps, and the room each starts with (a 2,000-token
/// answer takes about 8 KiB).
const KEPT_BUFFERS: usize = 4;
const BUFFER_ROOM: usize = 16 * 1024;
/// The largest buffer kept.
const KEPT_BUFFER_ROOM: usize = 1024 * 1024;

#[tool_router]
impl GraphServer {
    /// A server answering from `live`.
    pub fn new(live: Arc<LiveProject>) -> GraphServer {
        GraphServer {
            live,
            buffers: Arc::new(Mutex::new(Vec::new())),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        name = "search_nodes",
        description = "Find symbols by name: functions, classes, methods, interfaces, type aliases, variables, properties, enums and files. `query` is a name, a prefix (`save*`), a glob over names and dotted paths (`*Service.save*`), or a misspelt name (fuzzy). Filter by kinds, file glob, module, package, exported. Or a `topic` (`user store`) instead of `query`: finds names made of those words (createUserStore, SessionStore, user_store), files whose paths have them and declarations whose doc comments do, best first, with the edges between the hits. Returns node IDs to pass to the other tools; pages with offset/limit, and within maxTokens (default 2000; a cut page ends with `next`).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn search_nodes(
        &self,
        Parameters(args): Parameters<SearchArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(args.request(), args.output(Format::mcp_max_tokens))
            .await
    }

    #[tool(
        name = "get_callers",
        description = "Who calls this symbol, transitively (depth 1 = direct callers), each with its depth and the call sites' lines. Follows CALLS and JSX INCLUDES by default; calls through an interface reach it as dispatch. A class or interface answers for itself and each of its methods. Also says how many call sites could not be resolved and may reach it. Answers fit maxTokens (default 2000): one too large gives the totals of the whole answer first (total, direct, transitive, depths per depth, files; `exact: false` marks lower bounds), lists the results nearest first (every direct one before any transitive one) and ends with `unlisted` (the files of what was left out, with counts) and `next` — call again with its offset and generation for the next page. The walk reaches up to maxNodes (default 10000) results within maxDepth (default 100) hops: `truncated: true` means maxNodes cut it, `deeperThan: N` that more lies past depth N. Every answer ends with a completeness statement (TOON: `complete: true|false`).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn get_callers(
        &self,
        Parameters(args): Parameters<SymbolTraversal>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(args.callers(), args.output(Format::mcp_max_tokens))
            .await
    }

    #[tool(
        name = "get_callees",
        description = "What this symbol calls, transitively (depth 1 = direct callees), each with its depth; a call through an interface lists the interface member and, as dispatch, the implementations. A class answers for each of its methods. Answers fit maxTokens (default 2000): one too large gives the totals of the whole answer first (total, direct, transitive, depths per depth, files; `exact: false` marks lower bounds), lists the results nearest first (every direct one before any transitive one) and ends with `unlisted` (the files of what was left out, with counts) and `next` — call again with its offset and generation for the next page. The walk reaches up to maxNodes (default 10000) results within maxDepth (default 100) hops: `truncated: true` means maxNodes cut it, `deeperThan: N` that more lies past depth N. Every answer ends with a completeness statement (TOON: `complete: true|false`).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn get_callees(
        &self,
        Parameters(args): Parameters<SymbolTraversal>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(args.callees(), args.output(Format::mcp_max_tokens))
            .await
    }

    #[tool(
        name = "get_impact",
        description = "What may break if this symbol changes: everything that depends on it, transitively, over calls, imports, extends, implements, type uses, references and JSX includes (not CONTAINS), each with its depth and the edge it came through. Answers fit maxTokens (default 2000): one too large gives the totals of the whole answer first (total, direct, transitive, depths per depth, files; `exact: false` marks lower bounds), lists the results nearest first (every direct one before any transitive one) and ends with `unlisted` (the files of what was left out, with counts) and `next` — call again with its offset and generation for the next page. The walk reaches up to maxNodes (default 10000) results within maxDepth (default 100) hops: `truncated: true` means maxNodes cut it, `deeperThan: N` that more lies past depth N. Every answer ends with a completeness statement (TOON: `complete: true|false`).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn get_impact(
        &self,
        Parameters(args): Parameters<SymbolTraversal>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(args.impact(), args.output(Format::mcp_max_tokens))
            .await
    }

    #[tool(
        name = "get_change_impact",
        description = "What a change breaks, from git: the symbols the diff touched (each marked signature, body, added or top-level), each with everything that depends on it, transitively, over every dependency kind; and the declarations it removed or renamed, with the places that still name them (`namedBy`). `diff` left out: uncommitted work (working tree and index against HEAD); a revision: the working tree against it; `A..B`: between two revisions. Answers fit maxTokens (default 2000) as get_impact's do: totals first, nearest results, `unlisted` files and `next` to continue. Every answer ends with a completeness statement (TOON: `complete: true|false`).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn get_change_impact(
        &self,
        Parameters(args): Parameters<ChangeArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(args.request(), args.output(Format::mcp_max_tokens))
            .await
    }

    #[tool(
        name = "find_path",
        description = "How `from` reaches `to`: the shortest path (or the k shortest distinct paths) over calls, references, extends, implements and JSX includes, each hop with its edge kind. A call through an interface goes through the interface member, then to the implementation. Asked the wrong way round (no path from `from` to `to`, one from `to` to `from`), answers the path that exists, marked `reversed: true`. A class endpoint with no path through itself stands for its one method, or its methods are listed to choose from. Says when no path exists either way within maxDepth (default 20); `deeperThan: N` then means a longer path may exist.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn find_path(
        &self,
        Parameters(args): Parameters<PathArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(args.request(), args.output()).await
    }

    #[tool(
        name = "get_neighbors",
        description = "What is around a symbol: nodes within `distance` hops (default 1) over every edge kind, in, out or both directions, with the edges between them. Good for a quick map of a symbol's surroundings; bounded by maxNodes (default 10000) and by maxTokens (default 2000: a larger answer lists the nearest nodes after the totals and ends with `next`, the offset and generation of the next page). `deeperThan: N` means more nodes lie past `distance`; every answer ends with a completeness statement (TOON: `complete: true|false`).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn get_neighbors(
        &self,
        Parameters(args): Parameters<NeighborArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(args.request(), args.output(Format::mcp_max_tokens))
            .await
    }

    #[tool(
        name = "get_file_symbols",
        description = "Everything a file declares: functions, classes with their methods and properties, interfaces, type aliases, variables and enums, with line ranges, export status and signatures; a file too large for maxTokens (default 2000) lists its first symbols and ends with `next`. `file` is the path from the project root or a suffix naming one file.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn get_file_symbols(
        &self,
        Parameters(args): Parameters<FileArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(args.request(), args.output(Format::mcp_max_tokens))
            .await
    }

    #[tool(
        name = "get_package_deps",
        description = "Package-level dependencies: the packages a workspace package imports from (direction out), or the packages that import it (direction in), transitively up to maxDepth (default 10), each with its depth, the package it was reached through, and the file imports that create the dependency. Outside packages (npm dependencies) appear as leaves.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn get_package_deps(
        &self,
        Parameters(args): Parameters<DepsArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(args.request(), args.output()).await
    }

    /// Answers a request on a blocking thread (reads may touch the disk). Bad arguments and
    /// unknown or ambiguous symbols are tool errors the agent can act on (candidates,
    /// suggestions); only a failure of the server itself is a protocol error.
    async fn answer(
        &self,
        request: Result<QueryRequest, ArgError>,
        output: Output,
    ) -> Result<CallToolResult, ErrorData> {
        let format = output.format;
        let request = match request {
            Ok(request) => request,
            Err(ArgError(message)) => return Ok(tool_error(message)),
        };
        let live = Arc::clone(&self.live);
        let buffers = Arc::clone(&self.buffers);
        let answered = tokio::task::spawn_blocking(move || {
            let mut buffer = buffers
                .lock()
                .pop()
                .unwrap_or_else(|| BytesMut::with_capacity(BUFFER_ROOM));
            let written = live.query_with(&request, &output, &mut (&mut buffer).writer());
            let text = written.map(|_| String::from_utf8_lossy(&buffer).into_owned());
            buffer.clear();
            let mut kept = buffers.lock();
            // An answer far past any budget (an unbounded export-sized one) is not kept.
            if kept.len() < KEPT_BUFFERS && buffer.capacity() <= KEPT_BUFFER_ROOM {
                kept.push(buffer);
            }
            text
        })
        .await
        .map_err(|err| ErrorData::internal_error(format!("query task failed: {err}"), None))?;
        match answered {
            Ok(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Err(err) if format == Format::Json => Ok(tool_error(err.to_json().to_string())),
            Err(err) => Ok(tool_error(err.to_string())),
        }
    }
}

fn tool_error(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for GraphServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("tsgraph", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }
}

/// Serves the MCP protocol on stdin/stdout until the client closes it, while a watcher keeps
/// `live` level with the disk; `log` (stderr) gets one line per update.
pub fn serve(live: Arc<LiveProject>, log: Box<dyn Write + Send>) -> Result<(), Error> {
    let log = Arc::new(parking_lot::Mutex::new(log));
    let watch_log = Arc::clone(&log);
    let _watcher = tsgraph::watch(Arc::clone(&live), move |update| {
        let _ = writeln!(watch_log.lock(), "tsgraph: {update}");
    })?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|source| Error::Io {
            path: live.root().to_path_buf(),
            source,
        })?;
    runtime.block_on(async {
        let server = GraphServer::new(live)
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|err| protocol_error(err.to_string()))?;
        server
            .waiting()
            .await
            .map_err(|err| protocol_error(err.to_string()))?;
        Ok::<(), Error>(())
    })?;
    let _ = writeln!(log.lock(), "tsgraph: client closed the connection");
    Ok(())
}

fn protocol_error(message: String) -> Error {
    Error::Io {
        path: "stdio".into(),
        source: std::io::Error::other(format!("MCP: {message}")),
    }
}
