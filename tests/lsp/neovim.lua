-- Drives `tsgraph lsp` through Neovim's built-in LSP client (headless), on a copy of the
-- `lsp-editor` fixture, and writes what the server answered to a JSON file for the Rust test
-- (tests/tests/e2e/lsp.rs) to check. Environment: TSGRAPH_BIN (the binary), TSGRAPH_ROOT
-- (the project), TSGRAPH_OUT (the JSON file written).
--
-- Neovim 0.7's client has no helpers for type hierarchy, so every request goes through
-- `client.request_sync`; the edits are made to a buffer and left unsaved, so the client
-- sends them as incremental didChange notifications.

local bin = assert(os.getenv("TSGRAPH_BIN"), "TSGRAPH_BIN")
local root = assert(os.getenv("TSGRAPH_ROOT"), "TSGRAPH_ROOT")
local out = assert(os.getenv("TSGRAPH_OUT"), "TSGRAPH_OUT")
local TIMEOUT = 30000

local results = {}

local function finish(failure)
  if failure then
    results.failure = failure
  end
  local file = assert(io.open(out, "w"))
  file:write(vim.fn.json_encode(results))
  file:close()
  vim.cmd("qa!")
end

local client_id
local function client()
  return vim.lsp.get_client_by_id(client_id)
end

-- Opens `path` (relative to the project) in a buffer the client follows.
local function open(path)
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/" .. path))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  return buf
end

-- The zero-based position of the first `needle` on a line of `buf` that contains `anchor`.
local function position(buf, anchor, needle)
  for line, text in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if text:find(anchor, 1, true) then
      local byte = assert(text:find(needle, 1, true), needle)
      -- Columns are UTF-16 units: count them in the line's head.
      local units = vim.str_utfindex(text, byte - 1)
      return { line = line - 1, character = units }
    end
  end
  error("no line with " .. anchor)
end

local function request(method, params, buf)
  local answer, err = client().request_sync(method, params, TIMEOUT, buf)
  if not answer then
    error(method .. ": no answer (" .. tostring(err) .. ")")
  end
  if answer.err then
    error(method .. ": " .. vim.inspect(answer.err))
  end
  return answer.result
end

local function at(buf, anchor, needle)
  return {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = position(buf, anchor, needle),
  }
end

local function run()
  client_id = assert(vim.lsp.start_client({
    name = "tsgraph",
    cmd = { bin, "lsp", "--project", root },
    root_dir = root,
    -- UTF-16 only, whatever this Neovim could offer (0.10 and later offer UTF-8 first), so
    -- that the columns counted here and in the Rust test are UTF-16's.
    capabilities = vim.tbl_deep_extend("force", vim.lsp.protocol.make_client_capabilities(), {
      general = { positionEncodings = { "utf-16" } },
    }),
  }), "the client did not start")
  local util = open("src/util.ts")
  assert(vim.wait(TIMEOUT, function()
    return client() ~= nil and client().initialized
  end, 20), "the server did not initialize")
  results.encoding = client().server_capabilities.positionEncoding
  results.typeHierarchyProvider = client().server_capabilities.typeHierarchyProvider

  -- Call hierarchy of `format`: who calls it, with the ranges of the calls.
  local prepared = request("textDocument/prepareCallHierarchy", at(util, "function format", "format"), util)
  results.prepared = prepared
  results.incoming = request("callHierarchy/incomingCalls", { item = prepared[1] }, util)

  -- Outgoing calls of `report`, asked with the cursor on a call of it.
  local report = open("src/report.ts")
  local demo_call = request("textDocument/prepareCallHierarchy", at(report, "return report(", "report"), report)
  results.report_item = demo_call
  results.outgoing = request("callHierarchy/outgoingCalls", { item = demo_call[1] }, report)

  -- Type hierarchy: what Square extends and implements, and what extends Base.
  local shapes = open("src/shapes.ts")
  local square = request("textDocument/prepareTypeHierarchy", at(shapes, "class Square", "Square"), shapes)
  results.supertypes = request("typeHierarchy/supertypes", { item = square[1] }, shapes)
  local base = request("textDocument/prepareTypeHierarchy", at(shapes, "abstract class Base", "Base"), shapes)
  results.subtypes = request("typeHierarchy/subtypes", { item = base[1] }, shapes)

  -- References of `label` and workspace symbols.
  local refs = at(util, "function label", "label")
  refs.context = { includeDeclaration = true }
  results.references = request("textDocument/references", refs, util)
  results.symbols = request("workspace/symbol", { query = "form" }, util)

  -- An unsaved edit: a new function in main.ts that calls `format`, typed into the buffer
  -- and never written. The next incoming calls of `format` must include it.
  local main = open("src/main.ts")
  local last = vim.api.nvim_buf_line_count(main)
  vim.api.nvim_buf_set_lines(main, last, last, false, {
    "",
    "export function extra(): string {",
    "  return format(2);",
    "}",
  })
  -- Give the client's debounce a moment; a request for main's buffer also flushes its
  -- pending changes.
  vim.wait(400)
  results.after_edit = request("callHierarchy/incomingCalls", { item = prepared[1] }, main)
  results.modified = vim.api.nvim_buf_get_option(main, "modified")
end

local ok, err = pcall(run)
finish(not ok and tostring(err) or nil)
