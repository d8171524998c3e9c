//! The MCP server as an agent meets it: the real binary driven by rmcp's client over stdio.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ()>;

/// The tools the server must offer, as ts-graph-mcp names them.
const TOOLS: [&str; 9] = [
    "search_nodes",
    "get_change_impact",
    "get_callers",
    "get_callees",
    "get_impact",
    "find_path",
    "get_neighbors",
    "get_file_symbols",
    "get_package_deps",
];

async fn connect(project: &Path, log: &Path) -> Client {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_tsgraph-cli"));
    // After the command, as MCP client configurations write it (`args: ["mcp", "--project", …]`).
    command.arg("mcp").arg("--project").arg(project);
    let log = std::fs::File::create(log).expect("server log");
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::from(log))
        .spawn()
        .expect("tsgraph mcp starts");
    ().serve(transport).await.expect("initialize")
}

async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
        .await
        .unwrap_or_else(|err| panic!("{tool}: {err}"))
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|text| text.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn answer(result: &CallToolResult) -> String {
    assert_ne!(result.is_error, Some(true), "tool error: {}", text(result));
    text(result)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_client_lists_and_calls_every_tool_and_sees_a_file_change() {
    let (dir, project) = tsgraph_tests::fixture_copy("basic");
    let log = dir.path().join("server.log");
    let client = connect(&project, &log).await;

    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|s| s.name.as_str()),
        Some("tsgraph")
    );
    let tools = client.list_all_tools().await.expect("tools/list");
    let mut names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    names.sort_unstable();
    let mut expected = TOOLS.to_vec();
    expected.sort_unstable();
    assert_eq!(names, expected);
    for tool in &tools {
        let schema = Value::Object((*tool.input_schema).clone());
        assert!(
            schema["properties"]["format"].is_object(),
            "{} has a format argument: {schema}",
            tool.name
        );
        assert!(tool.description.as_ref().is_some_and(|d| d.len() > 80));
    }

    let found = answer(&call(&client, "search_nodes", json!({"query": "save*"})).await);
    assert!(found.contains("src/db/user.ts:saveUser"), "{found}");
    let topic = answer(
        &call(
            &client,
            "search_nodes",
            json!({"topic": "user services", "format": "text"}),
        )
        .await,
    );
    let first = topic.lines().nth(1).unwrap_or_default();
    assert!(
        first.starts_with("src/services/UserService.ts:UserService "),
        "{topic}"
    );
    let callers = answer(&call(&client, "get_callers", json!({"symbol": "saveUser"})).await);
    assert!(callers.contains("src/main.ts:main"), "{callers}");
    assert!(callers.contains("UserService.save"), "{callers}");
    // A complete answer says nothing more; one the depth bound cut says so.
    assert!(!callers.contains("deeperThan"), "{callers}");
    let shallow = answer(
        &call(
            &client,
            "get_callers",
            json!({"symbol": "saveUser", "maxDepth": 1}),
        )
        .await,
    );
    assert!(shallow.contains("deeperThan: 1"), "{shallow}");
    let callees = answer(
        &call(
            &client,
            "get_callees",
            json!({"symbol": "saveUser", "file": "src/db/user.ts", "format": "json"}),
        )
        .await,
    );
    let callees: Value = serde_json::from_str(&callees).expect("JSON answer");
    assert!(
        callees.to_string().contains("src/db/client.ts:insertRow"),
        "{callees}"
    );
    let impact = answer(&call(&client, "get_impact", json!({"symbol": "insertRow"})).await);
    assert!(impact.contains("src/db/user.ts:saveUser"), "{impact}");
    let path = answer(
        &call(
            &client,
            "find_path",
            json!({"from": "src/main.ts:main", "to": "insertRow", "format": "text"}),
        )
        .await,
    );
    assert!(path.contains("saveUser"), "{path}");
    let reversed = answer(
        &call(
            &client,
            "find_path",
            json!({"from": "insertRow", "to": "main"}),
        )
        .await,
    );
    assert!(reversed.starts_with("reversed: true"), "{reversed}");
    let neighbors = answer(
        &call(
            &client,
            "get_neighbors",
            json!({"symbol": "saveUser", "direction": "out", "format": "mermaid"}),
        )
        .await,
    );
    assert!(neighbors.contains("flowchart"), "{neighbors}");
    let symbols = answer(&call(&client, "get_file_symbols", json!({"file": "db/user.ts"})).await);
    assert!(symbols.contains("findUser"), "{symbols}");

    let deps = answer(
        &call(
            &client,
            "get_package_deps",
            json!({"package": "basic-app", "format": "json"}),
        )
        .await,
    );
    assert!(deps.contains("\"packages\""), "{deps}");

    // Unknown and ambiguous symbols, and bad arguments, are tool errors an agent can act on.
    let unknown = call(&client, "get_callers", json!({"symbol": "saveUsr"})).await;
    assert_eq!(unknown.is_error, Some(true));
    assert!(text(&unknown).contains("saveUser"), "{}", text(&unknown));
    let bad = call(
        &client,
        "get_callers",
        json!({"symbol": "saveUser", "maxDepth": 0}),
    )
    .await;
    assert_eq!(bad.is_error, Some(true));
    assert!(text(&bad).contains("maxDepth"), "{}", text(&bad));

    // A file written on disk reaches the answers without a restart.
    std::fs::write(
        project.join("src/audit.ts"),
        "import { saveUser } from \"./db/user\";\n\nexport function auditTrail() {\n  saveUser({ id: \"2\", name: \"Grace\" });\n}\n",
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let callers = loop {
        let callers = answer(&call(&client, "get_callers", json!({"symbol": "saveUser"})).await);
        if callers.contains("src/audit.ts:auditTrail") || Instant::now() > deadline {
            break callers;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        callers.contains("src/audit.ts:auditTrail"),
        "the new caller never appeared: {callers}\nserver log:\n{}",
        std::fs::read_to_string(&log).unwrap_or_default()
    );

    client.cancel().await.expect("close");
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains("updated src/audit.ts"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_asked_for_in_a_barrel_resolves_through_its_re_exports() {
    let (dir, project) = tsgraph_tests::fixture_copy("barrels");
    let log = dir.path().join("server.log");
    let client = connect(&project, &log).await;
    // Two files declare `alpha`: the bare name is ambiguous …
    let ambiguous = call(&client, "get_callers", json!({"symbol": "alpha"})).await;
    assert_eq!(ambiguous.is_error, Some(true));
    // … but src/index.ts re-exports (through src/lib/index.ts) only one of them.
    let callers = answer(
        &call(
            &client,
            "get_callers",
            json!({"symbol": "alpha", "file": "src/index.ts"}),
        )
        .await,
    );
    assert!(
        callers.starts_with("callers: \"src/lib/a.ts:alpha\""),
        "{callers}"
    );
    let beta = answer(
        &call(
            &client,
            "get_callers",
            json!({"symbol": "beta", "file": "src/index.ts"}),
        )
        .await,
    );
    assert!(beta.starts_with("callers: \"src/lib/b.ts:beta\""), "{beta}");
    // A class as a path endpoint stands for its one method; with several, they are listed.
    let boxed = answer(
        &call(
            &client,
            "find_path",
            json!({"from": "Box", "to": "src/lib/a.ts:alpha", "format": "text"}),
        )
        .await,
    );
    assert!(boxed.contains("src/lib/box.ts:Box.open"), "{boxed}");
    let pair = call(
        &client,
        "find_path",
        json!({"from": "Pair", "to": "src/lib/a.ts:alpha"}),
    )
    .await;
    assert_eq!(pair.is_error, Some(true));
    assert!(
        text(&pair).contains("src/lib/box.ts:Pair.left"),
        "{}",
        text(&pair)
    );
    client.cancel().await.expect("shut down");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hubs_callers_fit_the_default_budget_with_totals_and_continue_from_next() {
    let dir = tempfile::tempdir().expect("tempdir");
    let project = dir.path().join("hub");
    crate::budget::hub_project(&project, 40, 900, 30);
    let log = dir.path().join("server.log");
    let client = connect(&project, &log).await;
    let bpe = tiktoken_rs::o200k_base_singleton();
    let first = answer(&call(&client, "get_callers", json!({"symbol": "hub"})).await);
    assert!(
        bpe.encode_ordinary(&first).len() <= tsgraph::MCP_MAX_TOKENS,
        "{first}"
    );
    assert!(first.contains("\ntotal: 940\ndirect: 40\n"), "{first}");
    assert!(first.contains("\ncomplete: false"), "{first}");
    let field = |text: &str, key: &str| -> u64 {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(key)?.strip_prefix(": ")?.parse().ok())
            .unwrap_or_else(|| panic!("{key} in {text}"))
    };
    let next = first.split("next:\n").nth(1).expect("a next page");
    let (offset, generation) = (field(next, "offset"), field(next, "generation"));
    assert_eq!(offset, field(&first, "listed"));
    let second = answer(
        &call(
            &client,
            "get_callers",
            json!({"symbol": "hub", "offset": offset, "generation": generation}),
        )
        .await,
    );
    assert_eq!(field(&second, "offset"), offset, "{second}");
    assert!(!second.contains("staleFrom"), "{second}");
    // JSON over MCP is budgeted too (the default applies to every format there).
    let json = answer(
        &call(
            &client,
            "get_callers",
            json!({"symbol": "hub", "format": "json", "maxTokens": 0}),
        )
        .await,
    );
    let json: Value = serde_json::from_str(&json).expect("json");
    assert_eq!(json["nodes"].as_array().map(Vec::len), Some(940));
    client.cancel().await.expect("close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_change_impact_answers_for_the_uncommitted_work() {
    let repo = crate::change::repository();
    let log = repo.path().join("server.log");
    let client = connect(repo.path(), &log).await;
    let text = answer(&call(&client, "get_change_impact", json!({"format": "text"})).await);
    assert!(
        text.contains("impact of the changes against HEAD"),
        "{text}"
    );
    assert!(text.contains("src/math.ts:scale"), "{text}");
    assert!(text.contains("[signature changed]"), "{text}");
    assert!(text.contains("removed: src/math.ts:gone"), "{text}");
    let bad = call(&client, "get_change_impact", json!({"diff": "no-such-rev"})).await;
    assert_eq!(bad.is_error, Some(true));
    // (`text` here is the answer above: the function is `self::text`.)
    let bad = self::text(&bad);
    assert!(bad.contains("no-such-rev"), "{bad}");
    client.cancel().await.expect("close");
}
