"""The stock-client side of `arc-cua bench mcp`: times one observation tool on each page
through two MCP servers and prints one JSON line per (server, page).

Both servers are driven by the same client (the `mcp` package's stdio client, from the
venv `scripts/mcp-venv.sh` makes), so the numbers are round trips as an agent sees them:
JSON-RPC over stdio, the server's work, and the reply's size.

    python mcp-bench-client.py < CONFIG.json

CONFIG: {"runs": N, "timeout_s": S, "arc": {"command": ..., "args": [...]},
         "playwright": {"command": ..., "args": [...]}, "pages": [URL, ...]}

arc-cua is started once per page (`--url PAGE`), its first observe is a warm-up; Playwright
MCP is started once, navigates to each page, and its first snapshot is a warm-up. Output
lines: {"server", "page", "ms": [...], "text": the last reply's text content}; errors go
to stderr and exit non-zero (a benchmark that half ran says so).
"""

import asyncio
import json
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def text_of(result):
    if result.is_error:
        raise RuntimeError("tool error: " + " ".join(getattr(c, "text", "") for c in result.content))
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def timed(session, tool, args, runs, timeout_s):
    ms = []
    text = ""
    for i in range(runs + 1):
        started = time.perf_counter()
        result = await asyncio.wait_for(session.call_tool(tool, args), timeout_s)
        elapsed = (time.perf_counter() - started) * 1000
        text = text_of(result)
        if i > 0:  # the first call is the warm-up
            ms.append(round(elapsed, 3))
    return ms, text


def emit(server, page, ms, text):
    print(json.dumps({"server": server, "page": page, "ms": ms, "text": text}), flush=True)


async def arc(config):
    spec = config["arc"]
    for page in config["pages"]:
        params = StdioServerParameters(command=spec["command"], args=spec["args"] + ["--url", page])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await asyncio.wait_for(session.initialize(), config["timeout_s"])
                ms, text = await timed(session, "observe", {}, config["runs"], config["timeout_s"])
                emit("arc-cua", page, ms, text)


async def playwright(config):
    spec = config["playwright"]
    params = StdioServerParameters(command=spec["command"], args=spec["args"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await asyncio.wait_for(session.initialize(), config["timeout_s"])
            for page in config["pages"]:
                nav = await asyncio.wait_for(
                    session.call_tool("browser_navigate", {"url": page}), config["timeout_s"]
                )
                text_of(nav)
                ms, text = await timed(session, "browser_snapshot", {}, config["runs"], config["timeout_s"])
                emit("playwright-mcp", page, ms, text)


async def main():
    config = json.load(sys.stdin)
    await arc(config)
    await playwright(config)


if __name__ == "__main__":
    asyncio.run(main())
