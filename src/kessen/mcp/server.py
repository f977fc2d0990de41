"""The MCP server: the SDK's low-level server over standard input and output, listing the tools of
:class:`kessen.mcp.tools.Toolbox` with their models' JSON Schemas and serving their calls one at a time, each on a
worker thread (so the server still answers pings while a simulation plays)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

from kessen.mcp.tools import Reply, Toolbox
from kessen.version import __version__

INSTRUCTIONS = (
    "kessen: exact odds and a referee for tabletop miniature wargames (battlehost, armies-clash, legions, "
    "song-of-blades). rulesets lists the rulesets and their procedures; procedure_schema gives a procedure's input and "
    "odds its exact outcomes. scenarios lists the shipped scenarios; open_match starts one (people: the sides you play), "
    "match shows the pending decision with each option's notation and odds, choose makes it, undo takes it back, "
    "advise weighs the options, board draws the battlefield; simulate plays many AI battles."
)


def make_server(toolbox: Toolbox | None = None) -> Server[Any]:
    """The server of *toolbox* (a new one by default)."""
    box = toolbox or Toolbox()
    tools = [types.Tool(name=t.name, description=t.description, input_schema=t.schema()) for t in box.tools.values()]
    lock = anyio.Lock()

    async def list_tools(_ctx: ServerRequestContext[Any], _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(_ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        async with lock:  # the matches are one server's: one call at a time
            reply = await anyio.to_thread.run_sync(box.call, params.name, params.arguments or {})
        return _result(reply)

    return Server(
        "kessen", version=__version__, instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool,
    )


def _result(reply: Reply) -> types.CallToolResult:
    if reply.data is None:
        return types.CallToolResult(content=[types.TextContent(text=reply.error or "")], is_error=True)
    text = json.dumps(reply.data, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=reply.data)


def serve() -> None:
    """Serve over standard input and output until the client closes them."""

    async def run() -> None:
        server = make_server()
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)
