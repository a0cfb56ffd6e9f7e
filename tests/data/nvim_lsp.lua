-- Neovim, headless, as a rule author's editor: start `cardrules lsp` for the file opened,
-- wait for its diagnostics, ask for a hover, and write what it received to $OUT (one line
-- each). tests/test_lsp.py runs it: nvim --headless --clean -u tests/data/nvim_lsp.lua FILE
-- (the file is loaded after this configuration runs: the work waits for VimEnter)
vim.api.nvim_create_autocmd("VimEnter", { callback = function()
  local out = assert(io.open(os.getenv("OUT"), "w"))
  local command = vim.split(os.getenv("CARDRULES_LSP") or "cardrules lsp", " ", { trimempty = true })
  local buffer = vim.api.nvim_get_current_buf()
  local client = vim.lsp.start_client({
    name = "cardrules",
    cmd = command,
    root_dir = vim.fn.getcwd(),
  })
  vim.lsp.buf_attach_client(buffer, client)
  vim.wait(20000, function() return #vim.diagnostic.get(buffer) > 0 end, 50)
  for _, d in ipairs(vim.diagnostic.get(buffer)) do
    out:write(string.format("diagnostic %d:%d-%d:%d %s\n", d.lnum + 1, d.col + 1,
      d.end_lnum + 1, d.end_col + 1, d.message))
  end
  local line = tonumber(os.getenv("HOVER_LINE") or "0")
  if line > 0 then
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(buffer) },
      position = { line = line - 1, character = tonumber(os.getenv("HOVER_COLUMN")) - 1 },
    }
    local answers = vim.lsp.buf_request_sync(buffer, "textDocument/hover", params, 10000) or {}
    for _, answer in pairs(answers) do
      if answer.result then
        local text = answer.result.contents.value:gsub("\n", " | ")
        out:write("hover " .. text .. "\n")
      end
    end
  end
  out:close()
  vim.lsp.stop_client(client)
  vim.cmd("qa!")
end })
