"""A stock MCP client (the `mcp` package's stdio client) driving `arc-cua mcp`, for
tests/it/cli_mcp.rs. It only talks MCP and prints what it saw as one JSON object; the Rust
test judges the page by the page's own record.

    python mcp_drive.py SCENARIO ARC_CUA WS_URL TARGET_ID

SCENARIO:
  granted    --allow-input: list the tools; observe -> act (SET_VALUE) -> act again on the
             used snapshot (refused) -> click_at a field's point -> type_text -> click_at
             outside the viewport (refused) -> observe -> run_subtask (fill and submit).
  ungranted  no grants: observe -> act (refused: input_not_granted) -> wait 3 s for any
             change on the quiet page (more polls than the host keeps observations).
  launched   `--url PAGE` (TARGET_ID is the page's URL; WS_URL is ignored): observe, then
             disconnect (the server must take its Chromium with it).
  desktop    `--pid PID --allow-input` (TARGET_ID is the GTK fixture's pid; WS_URL is
             ignored): targets -> apps -> windows of the pid -> observe -> act CLICK
             Submit -> click_at the icon with shift held.
  bare       the args in $MCP_ARGS (the README's configuration: no page named; TARGET_ID is
             the page to open, WS_URL a URL off its grant): status -> open the page ->
             act CLICK its "Open in a new tab" link -> tabs (until the new one is listed)
             -> switch_tab to it -> open the URL off the grant (refused).
  subtask    the args in $MCP_ARGS, the subtask in $MCP_SUBTASK (TARGET_ID is the page to
             open): open the page -> observe -> run_subtask -> downloads.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

TIMEOUT_S = 60


def texts(result):
    return [c.text for c in result.content if getattr(c, "type", "") == "text"]


def header(text, key):
    """A `key: value` header line of a reply."""
    for line in text.splitlines():
        if line.startswith(key + ": "):
            return line[len(key) + 2 :]
    raise KeyError(f"no {key!r} line in {text!r}")


def reply(result):
    out = {"is_error": bool(result.is_error), "texts": texts(result)}
    if result.structured_content is not None:
        out["structured"] = result.structured_content
    return out


def element_id(elements, role, name):
    for e in elements:
        if e.get("role") == role and e.get("name") == name:
            return e["id"]
    raise KeyError(f"no {role} {name!r} in {[(e.get('role'), e.get('name')) for e in elements]}")


async def call(session, tool, args):
    return await asyncio.wait_for(session.call_tool(tool, args), TIMEOUT_S)


async def list_tools(session, seen):
    tools = await asyncio.wait_for(session.list_tools(), TIMEOUT_S)
    seen["tools"] = {
        t.name: {
            "required": sorted(t.input_schema.get("required", [])),
            "properties": sorted(t.input_schema.get("properties", {})),
            "description": t.description or "",
        }
        for t in tools.tools
    }


async def granted(session, seen):
    await list_tools(session, seen)
    first = await call(session, "observe", {"elements": True})
    seen["observe"] = reply(first)
    s1 = header(texts(first)[0], "snapshot")
    elements = json.loads(texts(first)[1])
    first_name = element_id(elements, "text_field", "First name")
    submit = element_id(elements, "button", "Submit")

    act = await call(
        session, "act", {"snapshot": s1, "action": "SET_VALUE", "element": first_name, "value": "Grace"}
    )
    seen["act"] = reply(act)
    # The snapshot the first act used up: refused, nothing pressed.
    seen["stale_act"] = reply(await call(session, "act", {"snapshot": s1, "action": "CLICK", "element": submit}))

    # The point tools: click_at the Last name field's centre (from the element's bounds),
    # type_text there; a point outside the viewport is a tool error.
    pointed = await call(session, "observe", {"elements": True})
    s2 = header(texts(pointed)[0], "snapshot")
    last = next(e for e in json.loads(texts(pointed)[1]) if e.get("role") == "text_field" and e.get("name") == "Last name")
    b = last["bounds"]
    x, y = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    seen["click_at_point"] = [x, y]
    clicked = await call(session, "click_at", {"snapshot": s2, "x": x, "y": y})
    seen["click_at"] = reply(clicked)
    typed = await call(session, "type_text", {"snapshot": header(texts(clicked)[0], "snapshot"), "text": "Byron"})
    seen["type_text"] = reply(typed)
    outside = await call(session, "click_at", {"snapshot": header(texts(typed)[0], "snapshot"), "x": x, "y": 100000})
    seen["click_at_outside"] = reply(outside)

    again = await call(session, "observe", {})
    seen["observe_again"] = reply(again)
    s3 = header(texts(again)[0], "snapshot")
    subtask = {
        "goal": "Fill in the contact form with the first name, last name and message, then submit it",
        "inputs": {"first_name": "Ada", "last_name": "Lovelace", "message": "Hello over MCP"},
        "verification": ['The page shows "Thank you, Ada Lovelace"'],
    }
    steps = []

    async def progress(done, total, message):
        steps.append(message)

    ran = await asyncio.wait_for(
        session.call_tool("run_subtask", {"snapshot": s3, "subtask": subtask}, progress_callback=progress),
        TIMEOUT_S,
    )
    seen["run_subtask"] = reply(ran)
    seen["steps"] = steps


async def ungranted(session, seen):
    first = await call(session, "observe", {"elements": True})
    s1 = header(texts(first)[0], "snapshot")
    elements = json.loads(texts(first)[1])
    first_name = element_id(elements, "text_field", "First name")
    seen["act"] = reply(
        await call(session, "act", {"snapshot": s1, "action": "SET_VALUE", "element": first_name, "value": "Eve"})
    )
    seen["wait_quiet"] = reply(await call(session, "wait", {"snapshot": s1, "timeout_s": 3}))


def processes_naming(text):
    """Pids whose command line contains `text`, read from /proc (not from the server)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if text.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


async def launched(session, seen):
    seen["observe"] = reply(await call(session, "observe", {}))
    # While connected, the launched Chromium's processes name its profile under TMPDIR.
    seen["alive_during"] = len(processes_naming(os.environ["TMPDIR"]))


async def desktop(session, seen):
    seen["targets"] = reply(await call(session, "targets", {}))
    seen["apps"] = reply(await call(session, "apps", {}))
    seen["windows"] = reply(await call(session, "windows", {"pid": int(sys.argv[4])}))
    first = await call(session, "observe", {"elements": True})
    seen["observe"] = reply(first)
    s1 = header(texts(first)[0], "snapshot")
    elements = json.loads(texts(first)[1])
    submit = element_id(elements, "button", "Submit")
    act = await call(session, "act", {"snapshot": s1, "action": "CLICK", "element": submit})
    seen["act"] = reply(act)
    s2 = header(texts(act)[0], "snapshot")
    icon = next(e for e in elements if e.get("name") == "Search icon")["bounds"]
    window = next((e["bounds"] for e in elements if e.get("role") == "window" and e.get("bounds")),
                  {"x": 0, "y": 0})
    x = icon["x"] + icon["width"] / 2 - window["x"]
    y = icon["y"] + icon["height"] / 2 - window["y"]
    seen["click_at"] = reply(
        await call(session, "click_at", {"snapshot": s2, "x": x, "y": y, "modifiers": ["shift"]})
    )


async def bare(session, seen, page, forbidden):
    await list_tools(session, seen)
    seen["status"] = reply(await call(session, "status", {}))
    seen["open"] = reply(await call(session, "open", {"url": page}))
    first = await call(session, "observe", {"elements": True})
    s1 = header(texts(first)[0], "snapshot")
    link = element_id(json.loads(texts(first)[1]), "link", "Open in a new tab")
    seen["act"] = reply(await call(session, "act", {"snapshot": s1, "action": "CLICK", "element": link}))
    for _ in range(100):
        tabs = json.loads(texts(await call(session, "tabs", {}))[0])["tabs"]
        if len(tabs) >= 2:
            break
        await asyncio.sleep(0.1)
    seen["tabs"] = tabs
    new = next(t for t in tabs if not t["current"])
    seen["switch_tab"] = reply(await call(session, "switch_tab", {"tab": new["tab"]}))
    seen["refused"] = reply(await call(session, "open", {"url": forbidden}))


async def subtask(session, seen, page):
    seen["open"] = reply(await call(session, "open", {"url": page}))
    first = await call(session, "observe", {})
    s1 = header(texts(first)[0], "snapshot")
    ran = await call(session, "run_subtask", {"snapshot": s1, "subtask": json.loads(os.environ["MCP_SUBTASK"])})
    seen["run_subtask"] = reply(ran)
    seen["downloads"] = reply(await call(session, "downloads", {}))


async def main():
    scenario, arc, ws_url, target = sys.argv[1:5]
    if scenario == "launched":
        args = ["mcp", "--url", target]
    elif scenario == "desktop":
        args = ["mcp", "--pid", target, "--allow-input"]
    elif scenario in ("bare", "subtask"):
        # The README's configuration, as the test read it from there: no page named.
        args = json.loads(os.environ["MCP_ARGS"])
    else:
        args = ["mcp", "--cdp", ws_url, "--target", target]
    if scenario == "granted":
        args.append("--allow-input")
    # The whole environment (the default passes only a few variables): TMPDIR included.
    params = StdioServerParameters(command=arc, args=args, env=dict(os.environ))
    seen = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await asyncio.wait_for(session.initialize(), TIMEOUT_S)
            seen["server"] = {"name": init.server_info.name, "instructions": init.instructions or ""}
            if scenario == "bare":
                await bare(session, seen, target, ws_url)
            elif scenario == "subtask":
                await subtask(session, seen, target)
            else:
                scenarios = {"granted": granted, "ungranted": ungranted, "launched": launched, "desktop": desktop}
                await scenarios[scenario](session, seen)
    print(json.dumps(seen))


if __name__ == "__main__":
    asyncio.run(main())
