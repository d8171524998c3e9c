//! The server over an in-memory connection: what it negotiates, how it answers in UTF-8
//! columns, and how it refuses what it cannot answer. (A real client drives it in
//! tests/tests/e2e/lsp.rs.)

use std::path::Path;
use std::thread::JoinHandle;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};

use super::{Setup, serve};

/// A project whose call to `format` follows non-ASCII text on its line.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |path: &str, text: &str| {
        let file = dir.path().join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("dir");
        std::fs::write(file, text).expect("write");
    };
    write("package.json", r#"{ "name": "p" }"#);
    write(
        "src/util.ts",
        "export function format(n: number): string {\n  return String(n);\n}\n",
    );
    write(
        "src/main.ts",
        "import { format } from \"./util\";\nexport function main() {\n  const s = \"größe 📐\"; format(1);\n}\n",
    );
    dir
}

struct Client {
    connection: Connection,
    server: JoinHandle<Result<(), tsgraph::Error>>,
    next: i32,
    /// The messages the server logged to the client, in order.
    logged: Vec<String>,
}

impl Client {
    /// Starts a server on `root` and initializes it, offering `encodings`.
    fn start(root: &Path, encodings: &[&str]) -> (Client, Value) {
        let (server_side, connection) = Connection::memory();
        let setup = Setup {
            root: Some(root.to_path_buf()),
            db: None,
            options: tsgraph::IndexOptions::default(),
        };
        let server =
            std::thread::spawn(move || serve(server_side, setup, Box::new(std::io::sink())));
        let mut client = Client {
            connection,
            server,
            next: 0,
            logged: Vec::new(),
        };
        let init = json!({ "capabilities": { "general": { "positionEncodings": encodings } } });
        let result = client
            .request("initialize", init)
            .result
            .expect("initialized");
        client.notify("initialized", json!({}));
        (client, result)
    }

    fn request(&mut self, method: &str, params: Value) -> Response {
        self.next += 1;
        let id = RequestId::from(self.next);
        let request = Request::new(id.clone(), method.to_owned(), params);
        self.connection.sender.send(request.into()).expect("send");
        loop {
            match self.connection.receiver.recv().expect("an answer") {
                Message::Response(response) if response.id == id => return response,
                Message::Notification(note) if note.method == "window/logMessage" => {
                    self.logged
                        .push(note.params["message"].as_str().unwrap_or("").to_owned());
                }
                _ => continue,
            }
        }
    }

    /// The call hierarchy item of `format` (util.ts, line 1).
    fn format_item(&mut self, root: &Path) -> Value {
        let at = json!({
            "textDocument": { "uri": uri(root, "src/util.ts") },
            "position": { "line": 0, "character": 18 },
        });
        let items = self.request("textDocument/prepareCallHierarchy", at);
        items.result.expect("items")[0].clone()
    }

    /// The incoming calls of `item`.
    fn incoming(&mut self, item: &Value) -> Value {
        let calls = self.request("callHierarchy/incomingCalls", json!({ "item": item }));
        calls.result.expect("calls")
    }

    fn notify(&self, method: &str, params: Value) {
        let notification = Notification::new(method.to_owned(), params);
        self.connection
            .sender
            .send(notification.into())
            .expect("send");
    }

    fn shut_down(mut self) {
        let response = self.request("shutdown", Value::Null);
        assert!(response.error.is_none());
        self.notify("exit", Value::Null);
        self.server.join().expect("server thread").expect("served");
    }
}

fn uri(root: &Path, path: &str) -> String {
    url::Url::from_file_path(root.canonicalize().expect("root").join(path))
        .expect("absolute")
        .to_string()
}

#[test]
fn utf8_columns_when_the_client_offers_them() {
    let dir = project();
    let (mut client, init) = Client::start(dir.path(), &["utf-16", "utf-8"]);
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    assert_eq!(init["capabilities"]["typeHierarchyProvider"], true);
    assert_eq!(init["serverInfo"]["name"], "tsgraph");
    let format = client.format_item(dir.path());
    assert_eq!(format["data"]["id"], "src/util.ts:format");
    let incoming = client.incoming(&format);
    let line = "  const s = \"größe 📐\"; format(1);";
    let byte = line.find("format(").expect("call") as u64;
    assert_eq!(incoming[0]["from"]["data"]["id"], "src/main.ts:main");
    assert_eq!(
        incoming[0]["fromRanges"][0]["start"],
        json!({ "line": 2, "character": byte })
    );
    assert_eq!(incoming[0]["fromRanges"][0]["end"]["character"], byte + 6);
    client.shut_down();
}

#[test]
fn utf16_unless_offered_otherwise_and_edits_count_in_it() {
    let dir = project();
    let (mut client, init) = Client::start(dir.path(), &[]);
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    let main = uri(dir.path(), "src/main.ts");
    let text = std::fs::read_to_string(dir.path().join("src/main.ts")).expect("main");
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": main, "languageId": "typescript", "version": 1, "text": text } }),
    );
    // Replace `format(1)` (after 📐, two UTF-16 units) with a call of nothing known.
    let line = "  const s = \"größe 📐\"; format(1);";
    let start = line[..line.find("format(").expect("call")]
        .encode_utf16()
        .count();
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": main, "version": 2 },
            "contentChanges": [{
                "range": { "start": { "line": 2, "character": start }, "end": { "line": 2, "character": start + 6 } },
                "text": "String",
            }],
        }),
    );
    let format = client.format_item(dir.path());
    let incoming = client.incoming(&format);
    assert_eq!(
        incoming,
        json!([]),
        "the unsaved edit removed the only call"
    );
    // A change past the end of the held text: the client and the server disagree, so the
    // document is let go and the disk's text (which has the call) counts again.
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": main, "version": 3 },
            "contentChanges": [{
                "range": { "start": { "line": 40, "character": 0 }, "end": { "line": 40, "character": 0 } },
                "text": "x",
            }],
        }),
    );
    let incoming = client.incoming(&format);
    assert_eq!(
        incoming[0]["from"]["data"]["id"], "src/main.ts:main",
        "let go: the disk's text"
    );
    assert!(
        client
            .logged
            .iter()
            .any(|m| m.contains("line 40") && m.contains("until it is opened again")),
        "{:?}",
        client.logged
    );
    let reopened = json!({ "textDocument": { "uri": main, "languageId": "typescript", "version": 4, "text": "export {};\n" } });
    client.notify("textDocument/didOpen", reopened);
    assert_eq!(
        client.incoming(&format),
        json!([]),
        "opened again: the client's text"
    );
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": main } }),
    );
    let incoming = client.incoming(&format);
    assert_eq!(
        incoming[0]["from"]["data"]["id"], "src/main.ts:main",
        "closed: the disk's text again"
    );
    client.shut_down();
}

#[test]
fn bad_requests_get_protocol_errors_and_unknown_places_get_nothing() {
    let dir = project();
    let (mut client, _) = Client::start(dir.path(), &[]);
    let unknown = client.request("textDocument/hover", json!({}));
    assert_eq!(unknown.error.expect("an error").code, -32601);
    let bad = client.request("callHierarchy/incomingCalls", json!({ "item": 3 }));
    let bad = bad.error.expect("an error");
    assert_eq!(bad.code, -32602);
    assert!(
        bad.message.contains("callHierarchy/incomingCalls"),
        "{}",
        bad.message
    );
    // A file outside the project, and a blank in a project file: no item, not an error.
    for (file, character) in [
        ("/elsewhere/x.ts".to_owned(), 0),
        (uri(dir.path(), "src/util.ts"), 6),
    ] {
        let file = if file.starts_with('/') {
            format!("file://{file}")
        } else {
            file
        };
        let at = json!({ "textDocument": { "uri": file }, "position": { "line": 0, "character": character } });
        let answer = client.request("textDocument/prepareCallHierarchy", at);
        assert_eq!(answer.result, Some(Value::Null), "{answer:?}");
    }
    client.shut_down();
}

#[test]
fn an_exit_without_a_shutdown_is_an_error() {
    let dir = project();
    let (client, _) = Client::start(dir.path(), &[]);
    client.notify("exit", Value::Null);
    let served = client.server.join().expect("server thread");
    let err = served.expect_err("the protocol's exit code 1");
    assert!(err.to_string().contains("without shutting down"), "{err}");
}
