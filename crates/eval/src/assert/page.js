// The assertion engine's eyes in the page: one function, called with the role/name engine
// (arc-browser's `ARIA_JS`, the scan's own) and a request, returning plain facts (never a
// verdict: the verdict is decided in Rust). It reads the DOM and computed styles only,
// never anything the runtime under test wrote. Roles and names are the engine's alone.
(aria, req) => {
  'use strict';
  const norm = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
  const parentOf = (e) => {
    if (e.parentElement) return e.parentElement;
    const root = e.getRootNode && e.getRootNode();
    return root instanceof ShadowRoot ? root.host : null;
  };
  const describe = (e) => {
    let d = '<' + e.tagName.toLowerCase();
    if (e.id) d += '#' + e.id;
    return d + '>';
  };
  const clips = (cs) => ['hidden', 'clip'].includes(cs.overflowX) || ['hidden', 'clip'].includes(cs.overflowY);
  const boxed = (cs) => cs.overflowX !== 'visible' || cs.overflowY !== 'visible';
  const intersects = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

  // Per element: why its subtree is not rendered (or null), and the overflow boxes that
  // clip it. Memoized: every text node asks about its whole ancestor chain.
  const memo = new Map();
  function chain(e) {
    if (!e) return { reason: null, clippers: [] };
    if (memo.has(e)) return memo.get(e);
    const up = chain(parentOf(e));
    let res = up;
    if (!up.reason) {
      const cs = getComputedStyle(e);
      let reason = null;
      if (e.getAttribute('aria-hidden') === 'true') reason = `aria-hidden="true" on ${describe(e)}`;
      else if (cs.display === 'none') reason = `display:none on ${describe(e)}`;
      else if (parseFloat(cs.opacity) === 0) reason = `opacity:0 on ${describe(e)}`;
      else if (boxed(cs) && cs.display !== 'contents') {
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) {
          reason = `inside zero-size ${describe(e)} (${r.width}×${r.height}, overflow:${cs.overflow})`;
        }
      }
      const clippers = !reason && clips(cs) ? up.clippers.concat([e]) : up.clippers;
      res = { reason, clippers };
    }
    memo.set(e, res);
    return res;
  }

  // Why `el`, whose box (or text's box) is `rect`, is not rendered; null when it is.
  function hiddenReason(el, rect) {
    const c = chain(el);
    if (c.reason) return c.reason;
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible') {
      let from = el; // visibility is inherited: name the element that set it
      for (let p = parentOf(el); p && getComputedStyle(p).visibility !== 'visible'; p = parentOf(p)) from = p;
      return `visibility:${cs.visibility} on ${describe(from)}`;
    }
    if (rect.width === 0 || rect.height === 0) {
      return `zero size (${rect.width}×${rect.height}) at ${describe(el)}`;
    }
    for (const box of c.clippers) {
      if (box !== el && !intersects(rect, box.getBoundingClientRect())) return `clipped away by ${describe(box)}`;
    }
    if (el.checkVisibility && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) {
      return `not rendered (${describe(el)})`;
    }
    return null;
  }

  const blockMemo = new Map();
  function blockOf(e) {
    if (blockMemo.has(e)) return blockMemo.get(e);
    const d = getComputedStyle(e).display;
    const p = parentOf(e);
    const b = (d === 'inline' || d === 'contents') && p ? blockOf(p) : e;
    blockMemo.set(e, b);
    return b;
  }

  // Text is searched per block box (an element that is not inline), so a sentence split
  // over inline elements is found and two paragraphs never run together.
  function visibleText(wanted) {
    const want = norm(wanted);
    const blocks = new Map();
    const entry = (b) => {
      if (!blocks.has(b)) blocks.set(b, { shown: [], all: [], reasons: [] });
      return blocks.get(b);
    };
    const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TITLE'].includes(parent.tagName)) continue;
      const e = entry(blockOf(parent));
      e.all.push(n.data);
      if (!n.data.trim()) { e.shown.push(n.data); continue; }
      const range = document.createRange();
      range.selectNodeContents(n);
      const reason = hiddenReason(parent, range.getBoundingClientRect());
      if (reason) { e.shown.push(' '); e.reasons.push(reason); } else e.shown.push(n.data);
    }
    // A closed <select> renders its selected option, not its option text nodes.
    for (const s of document.querySelectorAll('select')) {
      const o = s.selectedOptions && s.selectedOptions[0];
      if (!o || s.multiple) continue;
      const reason = hiddenReason(s, s.getBoundingClientRect());
      const e = entry(s);
      e.all.push(' ' + o.text);
      if (reason) e.reasons.push(reason); else e.shown.push(' ' + o.text);
    }
    let hidden = null;
    for (const e of blocks.values()) {
      if (norm(e.shown.join('')).includes(want)) return { visible: true, present: true, reason: null };
      if (!hidden && norm(e.all.join('')).includes(want)) hidden = e.reasons[0] || 'not rendered';
    }
    return { visible: false, present: hidden !== null, reason: hidden };
  }

  // Names as long as a page writes them (the scan clips its own at NAME_CAP).
  const NAME_LIMIT = 10000;
  const roleOf = (e) => aria.roleOf(e) || 'generic';
  // The name the snapshot shows, so a role locator finds what the view names.
  const nameOf = (e) => aria.shownName(e, aria.roleOf(e), NAME_LIMIT);

  function facts(e) {
    const reason = hiddenReason(e, e.getBoundingClientRect());
    const tristate = (name) => {
      const v = e.getAttribute(name);
      return v === 'true' ? true : v === 'false' ? false : null;
    };
    let checked = tristate('aria-checked');
    if (e.tagName === 'INPUT' && (e.type === 'checkbox' || e.type === 'radio')) checked = e.checked;
    let selected = tristate('aria-selected');
    if (e.tagName === 'OPTION') selected = e.selected;
    let value = null;
    if (e.isContentEditable) value = e.textContent;
    else if ('value' in e && typeof e.value === 'string') value = e.value;
    // innerText is what a reader sees (SVG and MathML elements lack it: their textContent).
    const text = typeof e.innerText === 'string' ? e.innerText : e.textContent;
    const selectedIndex = typeof e.selectedIndex === 'number' ? e.selectedIndex : null;
    return {
      element: describe(e), role: roleOf(e), name: nameOf(e), visible: reason === null, hidden_reason: reason,
      enabled: !aria.disabledOf(e),
      checked, selected, value, text, selected_index: selectedIndex,
    };
  }

  const LIMIT = 50;
  function locate(r) {
    let found;
    if (r.selector != null) found = Array.from(document.querySelectorAll(r.selector));
    else {
      const want = norm(r.name);
      found = Array.from(document.querySelectorAll('*')).filter((e) => nameOf(e) === want);
    }
    return { count: found.length, matches: found.slice(0, LIMIT).map(facts) };
  }

  // cyrb53: a 53-bit string hash, enough to tell two states of one page apart.
  function digest(str) {
    let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
    for (let i = 0; i < str.length; i++) {
      const ch = str.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
  }
  function fingerprint() {
    const parts = [location.href, document.title, document.documentElement.outerHTML];
    for (const e of document.querySelectorAll('input, textarea, select')) {
      parts.push(e.type === 'checkbox' || e.type === 'radio' ? String(e.checked) : String(e.value));
    }
    const all = parts.join('\u0000');
    return digest(all) + ':' + all.length;
  }

  switch (req.op) {
    case 'text': return visibleText(req.text);
    case 'locate': return locate(req);
    case 'location': return { url: location.href, title: document.title };
    case 'fingerprint': return fingerprint();
    default: throw new Error('unknown request ' + req.op);
  }
}
