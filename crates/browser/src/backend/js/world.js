// arc-cua's helpers, installed in an isolated world of each frame: page scripts cannot
// see or patch them, and they see the same DOM. Kept small: every function here runs on
// the hot path of a step. Called with the role/name engine (`aria.js`, world.rs joins them).
((aria) => {
  if (globalThis.__arc) return;
  const { NAME_CAP, SKIP, INLINE, CONTROLS, clip, roleOf, textOf, nameOf, otherNames, disabledOf } = aria;
  // The binding `Runtime.addBinding` installs in worlds of this name (`world.rs`).
  const NOTICE = 'arcCuaChanged';
  let mutations = 0;
  // Of those, writes to a style attribute alone (an animation's per-frame writes), and the
  // elements they touched since the last probe (bounded; `styledOver` when more did).
  let styleWrites = 0;
  const styled = new Set();
  let styledOver = false;
  function count(records) {
    for (const r of records) {
      if (r.type !== 'attributes' || r.attributeName !== 'style') continue;
      styleWrites++;
      if (styled.size < 256) styled.add(r.target); else styledOver = true;
    }
    mutations += records.length;
  }
  // Whether the page may have changed since the last scan (see `unchanged`).
  let dirty = true;
  // Whether the backend holds the last answer as the page's state until told otherwise
  // (`hold`): the first change then calls NOTICE (a CDP binding only this world has).
  let held = false;
  function touch() {
    dirty = true;
    if (!held) return;
    held = false;
    const notice = globalThis[NOTICE];
    if (typeof notice === 'function') notice('');
  }
  const observer = new MutationObserver((records) => { count(records); touch(); });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  // Records not yet delivered (a change made in the task before ours) count now.
  function flushMutations() {
    const pending = observer.takeRecords();
    if (pending.length) { count(pending); touch(); }
  }
  // Events after which a scan may read something else with no DOM mutation: layout,
  // scroll, focus, typed values, hover and press styles, loads, popovers, animations.
  const markDirty = touch;
  for (const type of ['scroll', 'resize', 'focusin', 'focusout', 'input', 'change', 'load',
    'error', 'beforetoggle', 'toggle', 'transitionrun', 'transitionstart', 'transitionend',
    'transitioncancel', 'animationstart', 'animationiteration', 'animationend', 'animationcancel',
    'mouseover', 'mouseout', 'mousedown', 'mouseup', 'click', 'keydown', 'keyup', 'pointerdown',
    'pointerup', 'close', 'cancel', 'fullscreenchange', 'visibilitychange', 'pageshow',
    'hashchange', 'popstate', 'pagehide']) {
    window.addEventListener(type, markDirty, { capture: true, passive: true });
  }
  if (document.fonts) document.fonts.addEventListener('loadingdone', markDirty);

  // Closed shadow roots this world was handed (`adoptRoot`): the page keeps no reference a
  // script of ours could follow, so the backend finds them with DevTools (which pierces
  // them) for the hosts the scan asks about (`hostCandidates`), each host asked once.
  const closedRoots = new WeakMap();
  const askedHosts = new WeakSet();
  let hostQueue = [];
  // An element's shadow root, open or handed to us closed.
  function rootOf(el) {
    return el.shadowRoot || closedRoots.get(el) || null;
  }
  // Elements that may host a closed root: a custom element or one attachShadow accepts,
  // showing a box while none of its own children is rendered (a host's unslotted children
  // are not). A host that slots its children in is missed. Asked once each, at most
  // MAX_HOSTS_ASKED a scan: ~4 DevTools calls each, on first sight only.
  const SHADOW_HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1',
    'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);
  const MAX_HOSTS_ASKED = 32;
  function mayHostClosedRoot(el, tag, r) {
    if (r.width === 0 || r.height === 0 || el.shadowRoot || askedHosts.has(el) || closedRoots.has(el)) return false;
    if (hostQueue.length >= MAX_HOSTS_ASKED || !(tag.includes('-') || SHADOW_HOSTS.has(tag))) return false;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1 && c.getClientRects().length) return false;
      if (c.nodeType === 3 && c.data.trim()) {
        const range = el.ownerDocument.createRange();
        range.selectNodeContents(c);
        if (range.getClientRects().length) return false;
      }
    }
    return !hostQueue.includes(el);
  }

  // The window a node lives in: a node reached through a same-origin iframe belongs to
  // that frame's window, not to the one this world was installed in.
  function winOf(node) {
    return (node.ownerDocument && node.ownerDocument.defaultView) || window;
  }

  // A window's viewport origin in the top frame's viewport (same-origin chain).
  function frameOffset(win) {
    let x = 0, y = 0, w = win || window;
    while (w !== w.top) {
      let owner;
      try { owner = w.frameElement; } catch (e) { break; }
      if (!owner) break;
      const [ox, oy] = contentOrigin(owner, owner.getBoundingClientRect());
      x += ox;
      y += oy;
      w = w.parent;
    }
    return [x, y];
  }
  // Where a frame element's document begins in its own viewport: inside its border and
  // padding (`r`: its bounding box).
  function contentOrigin(frame, r) {
    const style = winOf(frame).getComputedStyle(frame);
    return [r.left + frame.clientLeft + parseFloat(style.paddingLeft), r.top + frame.clientTop + parseFloat(style.paddingTop)];
  }

  function rects(node) {
    if (node.nodeType === Node.TEXT_NODE) {
      const range = node.ownerDocument.createRange();
      range.selectNodeContents(node);
      return Array.from(range.getClientRects());
    }
    return Array.from(node.getClientRects());
  }

  // The part of the node the window shows (its first box with area that does): within
  // the viewport and, with `clipped`, within every ancestor that scrolls its overflow (a
  // list scrolling in its own box: a row below that box's fold is inside the viewport,
  // yet a press there lands on whatever is drawn under the list).
  function visibleBox(node, clipped) {
    const win = winOf(node);
    const clips = clipped ? clipsOf(node, win) : [];
    for (const r of rects(node)) {
      if (r.width <= 0 || r.height <= 0) continue;
      let left = Math.max(r.left, 0), top = Math.max(r.top, 0);
      let right = Math.min(r.right, win.innerWidth), bottom = Math.min(r.bottom, win.innerHeight);
      for (const c of clips) {
        left = Math.max(left, c.left); top = Math.max(top, c.top);
        right = Math.min(right, c.right); bottom = Math.min(bottom, c.bottom);
      }
      if (right > left && bottom > top) return { left, top, width: right - left, height: bottom - top };
    }
    return null;
  }

  // The padding boxes of the node's ancestors a person can scroll (overflow auto or
  // scroll), below the document's own scroller (the viewport stands for that one). One
  // that merely hides its overflow is left out: no one can scroll it, and pages set it for
  // the length of a slide (jQuery's accordion), so a control in a half-open panel keeps
  // being refused until the panel is still rather than pressed while it moves.
  function clipsOf(node, win) {
    const out = [], doc = win.document;
    const scrolls = (o) => o === 'auto' || o === 'scroll';
    for (let a = node.parentElement; a && a !== doc.body && a !== doc.documentElement; a = a.parentElement) {
      const st = win.getComputedStyle(a);
      if (!scrolls(st.overflowX) && !scrolls(st.overflowY)) continue;
      const b = a.getBoundingClientRect();
      const left = b.left + a.clientLeft, top = b.top + a.clientTop;
      out.push({ left, top, right: left + a.clientWidth, bottom: top + a.clientHeight });
    }
    return out;
  }

  // The boxes of the node's first and last visible non-space characters, or null: a
  // selection a person drags runs from the one to the other.
  function shownChars(node) {
    const doc = node.ownerDocument;
    const walker = doc.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    const range = doc.createRange();
    const box = (t, i) => {
      range.setStart(t, i);
      range.setEnd(t, i + 1);
      const r = range.getClientRects()[0];
      return r && r.width > 0 && r.height > 0 ? r : null;
    };
    let first = null, last = null;
    for (let t = node.nodeType === Node.TEXT_NODE ? node : walker.nextNode(); t; t = walker.nextNode()) {
      const s = t.data;
      for (let i = 0; i < s.length && !first; i++) if (!/\s/.test(s[i])) first = box(t, i);
      for (let i = s.length - 1; i >= 0; i--) {
        if (/\s/.test(s[i])) continue;
        const r = box(t, i);
        if (r) { last = r; break; }
      }
      if (node.nodeType === Node.TEXT_NODE) break;
    }
    return first && last ? [first, last] : null;
  }

  // `tag#id "text"` for messages an agent reads: the page's text (and an id that is not a
  // plain word) as a JSON string, as arc_core::quote writes it, so no page closes the
  // quote or starts a line of its own.
  function describe(el) {
    if (!el) return 'nothing';
    const text = (el.innerText || (holdsPassword(el) ? '' : el.value) || '').trim().slice(0, 40);
    const id = /^[\w-]+$/.test(el.id) ? el.id : JSON.stringify(el.id);
    return el.tagName.toLowerCase() + (el.id ? '#' + id : '') + (text ? ' ' + JSON.stringify(text) : '');
  }

  // A date input's value (YYYY-MM-DD) from the forms people write: YYYY-MM-DD (or
  // YYYY/MM/DD) and MM/DD/YYYY (or MM-DD-YYYY, MM.DD.YYYY; one-digit parts allowed).
  // Anything else, or a day the calendar lacks, is an error and nothing is set.
  function isoDate(value) {
    const s = String(value).trim();
    if (s === '') return '';
    let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(s);
    let y, mo, d;
    if (m) { y = +m[1]; mo = +m[2]; d = +m[3]; } else if ((m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s))) {
      mo = +m[1]; d = +m[2]; y = +m[3];
    }
    const real = m && mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
    if (!real) throw new Error('not a date: ' + JSON.stringify(s) + '; a date input takes MM/DD/YYYY or YYYY-MM-DD');
    const pad = (n, w) => String(n).padStart(w, '0');
    return pad(y, 4) + '-' + pad(mo, 2) + '-' + pad(d, 2);
  }

  // "2:53 PM", "14:53", "2:53:10 am" → "14:53" / "14:53:10", the form a time input takes.
  function isoTime(value) {
    const s = String(value).trim();
    if (s === '') return '';
    const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?$/i.exec(s);
    let h = m ? +m[1] : -1;
    const half = m && m[4] ? m[4][0].toLowerCase() : '';
    if (half && (h < 1 || h > 12)) h = -1;
    else if (half === 'p' && h < 12) h += 12;
    else if (half === 'a' && h === 12) h = 0;
    if (!m || h < 0 || h > 23 || +m[2] > 59 || (m[3] && +m[3] > 59)) {
      throw new Error('not a time: ' + JSON.stringify(s) + '; a time input takes HH:MM (24 h) or H:MM AM/PM');
    }
    const pad = (n) => String(n).padStart(2, '0');
    return pad(h) + ':' + m[2] + (m[3] ? ':' + m[3] : '');
  }

  // `text` in the form input `el` holds it: a date or time input keeps the ISO form
  // (throws on text that is neither); anything else as written.
  function inputForm(el, text) {
    if (el.type === 'date') return isoDate(text);
    if (el.type === 'time') return isoTime(text);
    return text;
  }

  // Where in a partly covered element to aim, as fractions of its visible box.
  const AIM_POINTS = [[0.25, 0.5], [0.75, 0.5], [0.5, 0.25], [0.5, 0.75],
    [0.15, 0.15], [0.85, 0.15], [0.15, 0.85], [0.85, 0.85]];

  // Whether a press on element `hit` is a press on `node`: the node itself, inside it, or
  // a label that forwards the click to it.
  function reaches(node, hit) {
    if (!hit) return false;
    if (node.nodeType === Node.TEXT_NODE) return hit.contains(node);
    if (hit === node || node.contains(hit)) return true;
    return hit.control === node || !!(hit.closest && hit.closest('label') && hit.closest('label').control === node);
  }

  // What the point hits, in the node's own tree: a shadow root retargets the hit to its
  // own scope, the document to the outermost host.
  function hits(node, x, y) {
    const root = node.getRootNode();
    const hit = (root.elementFromPoint ? root : node.ownerDocument).elementFromPoint(x, y);
    if (!hit) return [false, 'nothing'];
    return reaches(node, hit) ? [true, ''] : [false, describe(hit)];
  }

  // ---- What a press would press, for the risk gate (backend/input.rs) ----

  // Text a person reads on an element: its rendered text (aria-hidden content included:
  // it is on screen), a button input's value, generated ::before/::after content; not the
  // text of controls nested in it (they are pressed, and named, on their own). The whole
  // page is no one's label.
  const NESTED_CONTROL = 'a[href], button, input, select, textarea, [onclick], [role=button], [role=link], [role=menuitem], [role=tab], [role=checkbox], [role=radio], [role=switch], [role=option]';
  function shownText(el, cap) {
    if (el.localName === 'body' || el.localName === 'html') return '';
    const win = winOf(el);
    const parts = [];
    let len = 0, visited = 0;
    const add = (s) => { if (s) { parts.push(s); len += s.length; } };
    const generated = (e) => {
      for (const pseudo of ['::before', '::after']) {
        const c = win.getComputedStyle(e, pseudo).content;
        if (!c || c === 'none' || c === 'normal') continue;
        for (const m of c.matchAll(/"((?:[^"\\]|\\.)*)"|attr\(\s*([\w-]+)\s*\)/g)) {
          add(m[1] !== undefined ? m[1] : e.getAttribute(m[2]));
        }
      }
    };
    const walk = (n) => {
      for (let c = (rootOf(n) || n).firstChild; c && len < cap && visited < 500; c = c.nextSibling) {
        if (c.nodeType === 3) { add(c.data); continue; }
        if (c.nodeType !== 1) continue;
        visited++;
        if (SKIP.has(c.localName) || c.matches(NESTED_CONTROL)) continue;
        if (!c.checkVisibility({ visibilityProperty: true })) continue;
        if (c.localName === 'img') { add(c.getAttribute('alt')); continue; }
        // Inline elements join their text to the next ("De<b>lete</b>" reads "Delete").
        const block = !INLINE.has(c.localName);
        if (block) add(' ');
        generated(c);
        walk(c);
        if (block) add(' ');
      }
    };
    if (el.localName === 'input') {
      const t = el.type;
      if (t === 'submit' || t === 'button' || t === 'reset') add(el.value);
      if (t === 'image') add(el.alt);
    }
    generated(el);
    walk(el);
    return clip(parts.join('').replace(/\s+/g, ' ').trim(), cap);
  }

  function pressable(el) {
    const name = nameOf(el, roleOf(el)), text = shownText(el, NAME_CAP);
    const also = otherNames(el, NESTED_CONTROL).filter((s) => s !== name && s !== text);
    return { element: describe(el), name, text, also };
  }

  // The element a press on `el` acts through: the control it sits in (a click on a
  // button's icon bubbles to the button), a label, else a card a script made clickable —
  // the outermost of a short run of ancestors under a pointer cursor (the cursor
  // inherits; a run reaching the body is the page's style, not a control).
  const ACTING = NESTED_CONTROL + ', label, summary';
  function actingOf(el) {
    const c = el.closest(ACTING);
    if (c) return c;
    let top = null;
    for (let a = el, i = 0; a && a.nodeType === 1; a = a.parentElement, i++) {
      const pointer = winOf(a).getComputedStyle(a).cursor === 'pointer';
      if (!pointer) return top;
      if (i >= 8 || a.localName === 'body' || a.localName === 'html') return null;
      top = a;
    }
    return top;
  }

  // Everything a press on `el` reaches as one element: described as the chain ("span →
  // button#wipe …"), named by all their names.
  function pressedAs(el) {
    const [first, ...rest] = pressedBy(el, true);
    if (!first) return { element: describe(el), name: '', text: '', also: [] };
    for (const r of rest) {
      first.element += ' → ' + r.element;
      for (const s of [r.name, r.text, ...r.also]) if (s) first.also.push(s);
    }
    return first;
  }

  // What a press at a point presses, `el` being the element there; arms the watch
  // `pressLanding` reads with it. Seen from our listeners, a press inside a shadow root
  // is retargeted to its outermost host when the root is closed: that host counts too.
  function armedAt(el) {
    watchWindow(window);
    if (!el) { watch = { node: document.documentElement }; return []; }
    watchWindow(winOf(el));
    watch = { node: actingOf(el) || el, host: outerHost(el) };
    return pressedBy(el, true);
  }
  // The outermost shadow host `node` is inside, or null: what our listeners see a press
  // inside a closed root land on.
  function outerHost(node) {
    let host = node;
    while (host.getRootNode() instanceof ShadowRoot) host = host.getRootNode().host;
    return host !== node ? host : null;
  }

  // What a press on `el` presses, each with all its names: `el` itself (when `own`: a
  // selection's text is not pressed for its own sake), the element it acts through, and
  // the control a label activates (`<label for>`, or the control it wraps) — "I agree"
  // pressing the Delete button it labels.
  function pressedBy(el, own) {
    const out = [], seen = new Set();
    const push = (e) => {
      if (!e || seen.has(e) || e.localName === 'body' || e.localName === 'html') return;
      seen.add(e);
      out.push(pressable(e));
    };
    if (own) push(el);
    push(actingOf(el));
    const label = el.closest('label');
    if (label) push(label.control);
    return out;
  }

  const PRESSED_INPUTS = new Set(['button', 'submit', 'reset', 'image']);
  // What Enter in `el` submits: the form's default button (its first submit button, as the
  // HTML spec's implicit submission), or the form itself when it has none.
  function submitterOf(el) {
    if (el.localName !== 'input' || PRESSED_INPUTS.has(el.type) || !el.form) return null;
    const form = el.form;
    const button = Array.prototype.find.call(form.elements, (e) =>
      (e.localName === 'button' && e.type === 'submit') ||
      (e.localName === 'input' && (e.type === 'submit' || e.type === 'image')));
    if (button) return button.matches(':disabled') ? null : pressable(button);
    return { element: describe(form), name: nameOf(form, 'form'), text: '' };
  }

  // Which element received the trusted press of one click: capture-phase listeners on the
  // target's window, armed by the last hit test before the press.
  let watch = null;
  const watched = new WeakSet();
  function onPress(e) {
    if (!watch || !e.isTrusted || watch[e.type]) return;
    watch[e.type] = e.composedPath()[0] || e.target;
  }
  function watchWindow(win) {
    if (watched.has(win)) return;
    watched.add(win);
    for (const type of ['mousedown', 'mouseup']) win.addEventListener(type, onPress, true);
  }


  // ---- Viewport scan (backend/scan.rs) ----
  // A whole-page AX tree costs 1.3 s on the std Vec docs page (62k nodes, 20.6 MB); this walks
  // the DOM once, skips subtrees whose box lies outside the viewport (± a margin) and returns
  // compact records. Roles and names are approximations of Chromium's.

  // Stable node keys: never reused, so a key can never come to mean another node.
  const keyOfNode = new WeakMap();
  const nodeOfKey = new Map(); // key → WeakRef(node)
  let lastKey = 0;
  function keyOf(node) {
    let k = keyOfNode.get(node);
    if (k === undefined) {
      k = ++lastKey;
      keyOfNode.set(node, k);
      nodeOfKey.set(k, new WeakRef(node));
    }
    return k;
  }
  // Drops the entries of collected nodes once the map has grown well past what is live.
  function sweepKeys(live) {
    if (nodeOfKey.size < 4 * live + 20000) return;
    for (const [k, ref] of nodeOfKey) if (!ref.deref()) nodeOfKey.delete(k);
  }

  const VALUE_CAP = 2000;
  const INTERACTIVE = new Set(['button', 'link', 'textbox', 'searchbox', 'combobox', 'listbox',
    'option', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'tab', 'treeitem']);
  // Attributes as written (`type` too, as the full read reports it: an element's facts do
  // not depend on the scope).
  const KEPT = ['id', 'name', 'type', 'placeholder', 'autocomplete', 'href', 'data-testid', 'data-test-id', 'data-test', 'data-qa'];
  // Record flags (decoded by scan.rs).
  const F = { disabled: 1, focused: 2, focusable: 4, editable: 8, readonly: 16, multiline: 32,
    draggable: 64, drop: 128, scrollable: 256, clickable: 512, select: 1024, block: 2048,
    hasSelected: 4096, selected: 8192, hasExpanded: 16384, expanded: 32768, setOnly: 65536 };
  // Date/time inputs: one value, typed part by part (InputType::is_date_or_time in arc-core).
  const DATE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week']);

  // A slider thumb the page gives no role: focusable, empty, absolutely placed inside a
  // long thin track at least twice its size along it (jQuery UI's handle, many hand-made
  // sliders). Chromium exposes a nameless generic node a reader cannot use; it is one.
  function thumbLike(el) {
    if (el.tabIndex < 0 || el.hasAttribute('role') || el.firstElementChild || el.textContent.trim()) return false;
    const track = el.parentElement;
    const v = el.ownerDocument.defaultView;
    if (!track || !v || v.getComputedStyle(el).position !== 'absolute') return false;
    const t = track.getBoundingClientRect(), r = el.getBoundingClientRect();
    const along = t.width >= t.height ? [t.width, t.height, r.width] : [t.height, t.width, r.height];
    return along[0] >= 3 * along[1] && along[0] >= 2 * along[2] && r.width > 0 && r.height > 0;
  }
  function widgetRole(el) {
    return roleOf(el) || (thumbLike(el) ? 'slider' : '');
  }
  // Such a thumb states no value: the number shown in text right after its track (one of
  // the next two siblings, before any control), as such pages show it.
  const NUMBER_TEXT = /^-?\d+(?:[.,]\d+)?(?:\s*\S{0,3})?$/;
  function shownValue(el) {
    let n = el.parentElement && el.parentElement.nextElementSibling;
    for (let k = 0; n && k < 2; k++, n = n.nextElementSibling) {
      if (CONTROLS.has(n.localName) || roleOf(n)) return '';
      const s = n.textContent.trim();
      if (NUMBER_TEXT.test(s)) return clip(s, VALUE_CAP);
    }
    return '';
  }
  // An icon: an empty leaf of icon size whose picture comes from its style (a CSS image,
  // `content: url()`, an icon font's ::before glyph) — a control to a sighted user, with
  // nothing in the DOM that names it.
  const ICON_MAX = 64;
  function iconOf(el, style, r) {
    if (el.firstElementChild || r.width <= 0 || r.height <= 0 || r.width > ICON_MAX || r.height > ICON_MAX) return false;
    if (el.textContent.trim() || !(el.getAttribute('class') || el.id)) return false;
    const drawn = (c) => c && c !== 'none' && c !== 'normal';
    if (style.content.startsWith('url(') || style.backgroundImage.startsWith('url(')) return true;
    const before = el.ownerDocument.defaultView.getComputedStyle(el, '::before').content;
    return drawn(before) && before !== '""';
  }
  // Class tokens (else id) as words, minus an icon set's own prefixes and state words.
  const ICON_NOISE = new Set(['fa', 'fas', 'far', 'fab', 'fal', 'bi', 'icon', 'icons', 'glyphicon',
    'material', 'mdi', 'ion', 'ionicons', 'btn', 'button', 'ui', 'clicked', 'active', 'hover',
    'selected', 'disabled', 'hidden', 'hide', 'show', 'open', 'on', 'off', 'lg', 'sm', 'xs', 'fw']);
  function iconName(el) {
    const words = (s) => s.split(/[\s_-]+/).filter((w) => w && !/^\d+$/.test(w) && !ICON_NOISE.has(w.toLowerCase()));
    let out = words(el.getAttribute('class') || '');
    if (!out.length && el.id) out = words(el.id);
    return clip(Array.from(new Set(out)).join(' '), NAME_CAP);
  }

  // A field that holds a password: type=password, or one a "show password" toggle made
  // a text field (its autocomplete still says what it holds).
  function holdsPassword(el) {
    if (el.localName !== 'input') return false;
    return el.type === 'password' || /(^|\s)(current|new)-password(\s|$)/i.test(el.getAttribute('autocomplete') || '');
  }
  // The values of the password fields in `docs` (and `seen`, the walked ones, shadow roots
  // included), for the backend's redactor alone: the records never carry them.
  const SECRETS_MAX = 32, SECRET_CAP = 1024;
  function passwordsOf(docs, seen) {
    const out = new Set(seen);
    for (const doc of docs) {
      for (const el of doc.querySelectorAll('input[type="password" i], input[autocomplete*="password" i]')) {
        if (out.size >= SECRETS_MAX) break;
        if (el.value && holdsPassword(el)) out.add(el.value.slice(0, SECRET_CAP));
      }
    }
    return Array.from(out).slice(0, SECRETS_MAX);
  }

  function valueOf(el, role, tag) {
    if (tag === 'input') {
      const t = el.type;
      // A password never leaves the page: only whether it is filled.
      if (t === 'password') return el.value ? '••••' : '';
      // A file input holds the chosen files' names (its `value` is a fake path).
      if (t === 'file') return clip(Array.from(el.files || [], f => f.name).join(', '), VALUE_CAP);
      if (t === 'checkbox' || t === 'radio' || t === 'button' || t === 'submit' ||
          t === 'reset' || t === 'image' || t === 'hidden') return '';
      return clip(el.value, VALUE_CAP);
    }
    if (tag === 'textarea') return clip(el.value, VALUE_CAP);
    if (tag === 'select') {
      if (role !== 'combobox') return '';
      const o = el.selectedOptions[0];
      return o ? clip((o.label || o.text).trim(), VALUE_CAP) : '';
    }
    if (tag === 'progress' || tag === 'meter') return String(el.value);
    if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'scrollbar' || role === 'meter') {
      const v = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
      if (!v && role === 'slider' && !el.hasAttribute('role')) return shownValue(el);
      return v ? clip(v, VALUE_CAP) : '';
    }
    if (role === 'textbox' && el.isContentEditable) return textOf(el, VALUE_CAP);
    // A combobox that is not a native control (a button or div with role=combobox) shows
    // its choice as its text: Chromium's AX value for it is that text.
    if (role === 'combobox') return textOf(el, VALUE_CAP);
    return '';
  }

  function tri(v) { return v === 'true' || v === 'mixed' ? true : v === 'false' ? false : null; }

  // Checked (checkbox, radio, switch), selected (option, tab, row) or pressed; null: n/a.
  function selectedOf(el, role, tag) {
    if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
    if (tag === 'option') return el.selected;
    switch (role) {
      case 'checkbox': case 'radio': case 'switch': case 'menuitemcheckbox': case 'menuitemradio':
        return tri(el.getAttribute('aria-checked')) || false;
      case 'option': case 'tab': case 'row': case 'gridcell': case 'treeitem':
        return tri(el.getAttribute('aria-selected'));
      case 'button': return tri(el.getAttribute('aria-pressed'));
    }
    return null;
  }

  function expandedOf(el, role, tag) {
    const v = tri(el.getAttribute('aria-expanded'));
    if (v !== null) return v;
    if (tag === 'select' && role === 'combobox') return false;
    if (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details') return el.parentElement.open;
    if (foldsAList(el, role, tag)) return false;
    return null;
  }

  // A folder that says nothing of its state (no aria-expanded): the list right after it,
  // or its own child list after its label text, holds items but is not rendered. Only
  // the closed state is inferred: an open list beside a label proves no disclosure.
  const LIST_ROLES = new Set(['list', 'group', 'tree', 'menu']);
  function isList(n) {
    return !!n && n.nodeType === 1 && LIST_ROLES.has(roleOf(n));
  }
  function closedList(n) {
    if (!isList(n) || !n.firstElementChild) return false;
    const v = n.ownerDocument.defaultView;
    return !!v && v.getComputedStyle(n).display === 'none';
  }
  function foldsAList(el, role, tag) {
    if (closedList(el.nextElementSibling)) return true;
    if (tag !== 'li' && role !== 'treeitem') return false;
    let label = false;
    for (const c of el.childNodes) {
      if (c.nodeType === 3 && c.data.trim()) label = true;
      else if (c.nodeType === 1 && isList(c)) return label && closedList(c);
    }
    return false;
  }

  // The fields a freshness re-read must reproduce: [role, name, value, disabled, selected, expanded].
  function readElement(el) {
    const tag = el.localName;
    const role = widgetRole(el);
    let name = nameOf(el, role);
    // As the scan names it: an icon by its class words.
    if (!name && !role && iconOf(el, el.ownerDocument.defaultView.getComputedStyle(el), el.getBoundingClientRect())) name = iconName(el);
    return [role, name, valueOf(el, role, tag), disabledOf(el),
      selectedOf(el, role, tag), expandedOf(el, role, tag)];
  }

  // A text node's run: whitespace collapsed (unless `pre`), trimmed at block edges.
  function textName(t, pre) {
    if (pre) return clip(t.data, VALUE_CAP);
    let s = t.data.replace(/\s+/g, ' ');
    const prev = t.previousSibling, next = t.nextSibling;
    if (s === ' ') {
      // Kept only between inline runs of text ("<b>a</b> <i>b</i>"), not beside a control.
      const inline = (n) => n && (n.nodeType === 3 || (n.nodeType === 1 && INLINE.has(n.localName) && !CONTROLS.has(n.localName) && n.localName !== 'img'));
      return inline(prev) && inline(next) ? ' ' : '';
    }
    // At the edge of an inline parent the space still separates words ("<b>let </b>mut").
    const parentInline = t.parentElement && INLINE.has(t.parentElement.localName);
    const blockEdge = (n) => (n ? n.nodeType === 1 && !INLINE.has(n.localName) : !parentInline);
    if (blockEdge(prev)) s = s.trimStart();
    if (blockEdge(next)) s = s.trimEnd();
    return clip(s, VALUE_CAP);
  }

  // Whether white-space keeps spaces (pre, pre-wrap, break-spaces).
  function keepsSpaces(style) {
    const ws = style.whiteSpace;
    return ws === 'pre' || ws === 'pre-wrap' || ws === 'break-spaces';
  }

  const round = (v) => Math.round(v * 10) / 10;

  // The deepest focused element, through same-origin frames and open shadow roots.
  function deepFocus(doc) {
    let a = doc.activeElement;
    for (;;) {
      if (!a) return null;
      const root = rootOf(a);
      if (root && root.activeElement) { a = root.activeElement; continue; }
      if (a.localName === 'iframe' || a.localName === 'frame') {
        let inner = null;
        try { inner = a.contentDocument; } catch (e) { /* cross-origin */ }
        if (inner && inner.activeElement) { a = inner.activeElement; continue; }
      }
      return a;
    }
  }

  // The flat-tree parent (slots, shadow hosts, frame owners).
  function flatParent(n) {
    if (n.assignedSlot) return n.assignedSlot;
    const p = n.parentNode;
    if (!p) return null;
    if (p.nodeType === 11 && p.host) return p.host;
    if (p.nodeType === 9) return p.defaultView && p.defaultView.frameElement;
    return p;
  }

  const DIALOGS = 'dialog[open], [aria-modal="true"]';
  const ROW_GROUPS = new Set(['tbody', 'thead', 'tfoot']);
  const BELOW = 1; // element(): skipped, wholly below the region

  // ---- The scan's fast path: "unchanged since revision N" ----
  // A scan is pure in the DOM, layout and styles, the viewport, scroll positions, focus,
  // control values and the URL. `dirty` (mutations and the events above) catches most
  // changes; `seen` re-checks at once what can change before its event is dispatched (a
  // scroll or resize waits for the next frame) or fires none (a value set by script, a
  // style sheet edited through the CSSOM, a running animation). Pages this cannot watch
  // (same-origin frames, shadow roots) are always scanned. Two changes fire nothing this
  // world can see (a rule's declarations edited in place through the CSSOM, a custom
  // element upgraded by the page's `customElements.define`): a scan is at most
  // REUSE_MS old, so such a change shows within that bound.
  const REUSE_MS = 1000;
  let revision = 0;
  let seen = null;

  function controlState(el) {
    if (el.localName === 'select') return Array.from(el.selectedOptions, (o) => o.index).join(',');
    return el.value + (el.checked ? '\u0001' : '\u0000');
  }
  function sheetRules() {
    let n = document.styleSheets.length * 100003 + document.adoptedStyleSheets.length;
    for (const list of [document.styleSheets, document.adoptedStyleSheets]) {
      for (const sheet of list) {
        try { n += sheet.cssRules.length; } catch (e) { /* cross-origin: its rules are unreadable */ }
      }
    }
    return n;
  }
  // While only these run, layout stays put: the target and what it holds are drawn moved,
  // turned or faded. Anything else (a width, a margin) may move every box.
  const DRAWN_ONLY = new Set(['transform', 'translate', 'rotate', 'scale', 'opacity']);
  const KEYFRAME_META = new Set(['offset', 'computedOffset', 'easing', 'composite']);
  function animatedProperties(a) {
    if (a.transitionProperty) return [a.transitionProperty];
    const props = [];
    for (const k of a.effect.getKeyframes()) for (const p in k) if (!KEYFRAME_META.has(p)) props.push(p);
    return props;
  }

  // What the running animations did to the last scan: the boxes of the scanned nodes they
  // carry, as they are now ([key, x, y, w, h] for each that differs), or null when one may
  // change more than those boxes — it animates layout, targets a pseudo-element or a node
  // the scan did not show, fades its target out, or carries a node across the edge of the
  // region the scan walked, into or out of zero size, or holds a scroller (whose region
  // moves with it). A spinner or a turning chevron (mdBook's sidebar: 0.5 s after every
  // load) then costs a re-measure of its own nodes instead of a whole scan.
  function motion(s) {
    const moved = [], measured = new Set();
    for (const a of document.getAnimations()) {
      if (a.playState !== 'running' && !a.pending) continue;
      const fx = a.effect, t = fx && fx.target;
      if (!t || fx.pseudoElement || s.truncated || !s.emitted.has(t)) return null;
      if (!animatedProperties(a).every((p) => DRAWN_ONLY.has(p))) return null;
      if (getComputedStyle(t).opacity === '0') return null;
      const region = regionOf(t, s);
      const walker = document.createTreeWalker(t, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let n = t; n; n = walker.nextNode()) {
        if (s.cut.has(n) || s.clips.has(n)) return null;
        const at = s.emitted.get(n);
        if (at === undefined || measured.has(n)) continue;
        measured.add(n);
        const was = s.records[at].b;
        if (!was) continue;
        let r;
        if (n.nodeType === 3) { s.range.selectNodeContents(n); r = s.range.getBoundingClientRect(); } else r = n.getBoundingClientRect();
        const now = [round(r.left), round(r.top), round(r.width), round(r.height)];
        if ((now[2] > 0) !== (was[2] > 0) || (now[3] > 0) !== (was[3] > 0)) return null;
        if ((r.width > 0 || r.height > 0) && outside(r, region)) return null;
        if (now.some((v, i) => v !== was[i])) moved.push([s.records[at].k, ...now]);
      }
    }
    return moved;
  }
  // The region the scan walked a node in: its innermost clipping scroller's, else the top one.
  function regionOf(node, s) {
    for (let a = flatParent(node); a; a = flatParent(a)) {
      const g = s.clips.get(a);
      if (g) return g;
    }
    return s.top;
  }
  function outside(r, g) {
    return r.right < g.l || r.left > g.r || r.bottom < g.t || r.top > g.b;
  }
  function settledLoads() {
    if (document.readyState !== 'complete' || (document.fonts && document.fonts.status !== 'loaded')) return false;
    for (const img of document.images) if (!img.complete) return false;
    return true;
  }

  // ---- Pictures on their way ----
  // A picture drawn by style (`content: url()`) or an <img> with no size of its own has an
  // empty box until its image arrives: an icon a person will see in a moment, which a scan
  // now would miss. The scan notes those in its region (`pictureOf`); the backend may then
  // wait for them (`__arc.pictures`), once per picture in this document, and scan again.
  const waitedPictures = new Set();
  let pendingPictures = [];
  function pictureOf(el, tag, style) {
    if (tag === 'img') return el.complete ? '' : el.currentSrc || el.src;
    const m = /^url\("((?:[^"\\]|\\.)*)"\)/.exec(style.content);
    return m ? m[1].replace(/\\(.)/g, '$1') : '';
  }

  // What the scan just read, for `unchanged`; null when the page cannot be watched.
  function remember(key, tally) {
    if (!tally.watchable || !settledLoads()) return null;
    const s = { key, W: innerWidth, H: innerHeight, sx: scrollX, sy: scrollY, dpr: devicePixelRatio,
      href: location.href, design: document.designMode, focus: deepFocus(document),
      controls: tally.controls.map((el) => [el, controlState(el)]),
      scrollers: tally.scrollers.map((el) => [el, el.scrollTop, el.scrollLeft]),
      sheets: sheetRules(), at: performance.now(),
      emitted: tally.emitted, records: tally.records, cut: tally.cut, clips: tally.clips,
      top: tally.top, truncated: tally.truncated, range: document.createRange() };
    return motion(s) ? s : null;
  }

  // False when the page may have changed since the last scan, else what running
  // animations moved (`motion`).
  function unchanged(key) {
    flushMutations();
    const s = seen;
    if (dirty || !s || s.key !== key || performance.now() - s.at > REUSE_MS) return false;
    if (innerWidth !== s.W || innerHeight !== s.H || scrollX !== s.sx || scrollY !== s.sy ||
        devicePixelRatio !== s.dpr || location.href !== s.href || document.designMode !== s.design) return false;
    if (deepFocus(document) !== s.focus) return false;
    for (const [el, state] of s.controls) if (controlState(el) !== state) return false;
    for (const [el, top, left] of s.scrollers) if (el.scrollTop !== top || el.scrollLeft !== left) return false;
    if (!settledLoads() || sheetRules() !== s.sheets) return false;
    return motion(s) || false;
  }

  // The scan, or {same: N} when `opts.since` is the revision of the last scan and nothing
  // it reads has changed since. `wt`: the answer is watched (`hold`).
  function scanOrSame(opts) {
    const { since, ...rest } = opts;
    const key = JSON.stringify(rest);
    held = false;
    const moved = since != null && since === revision && unchanged(key);
    if (moved) {
      const out = moved.length ? { same: revision, moved } : { same: revision };
      out.wt = !moved.length && hold();
      return out;
    }
    flushMutations();
    dirty = false;
    seen = null;
    const tally = { watchable: true, controls: [], scrollers: [], clips: new Map(), cut: new Set(), pictures: [] };
    const out = scan(rest, tally);
    out.rev = ++revision;
    pendingPictures = tally.pictures;
    if (tally.pictures.length) out.pp = tally.pictures.length;
    seen = remember(key, tally);
    out.wt = hold();
    return out;
  }

  // ---- Watching the last answer: the backend shows it again without asking ----
  // After an answer the backend may hold it as the page's state (REUSE_MS at most) until the
  // page calls NOTICE, which `touch` does on the first mutation or event. What fires none
  // (a value set by script, a CSSOM edit, `pushState`) `unchanged` catches on a re-check
  // every BEAT_MS while watched: one frame at 60 Hz, ~12-14 µs a check on the fixture
  // pages, and only for the second after an answer. Not watched: a page `unchanged` cannot
  // vouch for (no `seen`), a hidden one (its timers are throttled to 1 s), a running
  // animation (its boxes move without a notice) or canvases (their text is the backend's
  // OCR, which a notice would not cover).
  const BEAT_MS = 16;
  let beat = 0;
  function hold() {
    clearTimeout(beat);
    beat = 0;
    held = !!seen && !dirty && document.visibilityState === 'visible' && !animating() &&
      document.getElementsByTagName('canvas').length === 0;
    if (held) beat = setTimeout(recheck, BEAT_MS);
    return held;
  }
  function recheck() {
    beat = 0;
    if (!held) return;
    const s = seen;
    if (!s || performance.now() - s.at > REUSE_MS) { held = false; return; }
    const moved = unchanged(s.key);
    if (!moved || moved.length || document.visibilityState !== 'visible') { touch(); return; }
    beat = setTimeout(recheck, BEAT_MS);
  }
  function animating() {
    for (const a of document.getAnimations()) if (a.playState === 'running' || a.pending) return true;
    return false;
  }

  function scan(opts, tally) {
    const margin = opts.margin ?? 0.5, textBounds = opts.textBounds ?? true;
    let max = opts.max ?? 5000;
    const records = [];
    const emitted = new Map(); // node → record index
    const docs = [];           // [ctx] of every document walked
    const passwords = new Set(); // values of the password fields walked
    let elementRecords = 0, elements = 0, truncated = false;
    // Whether anything rendered was skipped for lying outside the walked region (the scan
    // then did not cover the whole page), and cross-origin frames it could not enter.
    let partial = false, opaque = 0;
    const opaqueAt = [];
    const focus = deepFocus(document);
    const W = innerWidth, H = innerHeight;
    // A page this small is walked whole: no region, scroll containers and frames included.
    const whole = opts.whole != null && document.getElementsByTagName('*').length <= opts.whole;
    const everywhere = { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };

    function push(node, rec) {
      emitted.set(node, records.length);
      records.push(rec);
      return records.length - 1;
    }

    // A document: its record, then its body's children. `ctx`: offsets to the top viewport and
    // the region (in this document's coordinates) worth walking.
    function enterDocument(doc, parent, ox, oy, region) {
      const win = doc.defaultView;
      const ctx = { doc, win, ox, oy, region, range: doc.createRange() };
      docs.push(ctx);
      elements += doc.getElementsByTagName('*').length;
      const rec = { k: keyOf(doc), r: 'RootWebArea' };
      if (parent >= 0) rec.p = parent;
      // As in the AX tree: the document is focused when nothing in it is.
      if (doc === document && (!focus || focus === doc.body || focus === doc.documentElement)) rec.f = F.focused;
      const title = clip(doc.title.trim(), NAME_CAP);
      if (title) rec.n = title;
      const at = push(doc, rec);
      const body = doc.body || doc.documentElement;
      if (body) children(body, at, ctx, 'auto', keepsSpaces(win.getComputedStyle(body)));
      return at;
    }

    function children(el, at, ctx, cursor, pre) {
      if (el.localName === 'slot') {
        const assigned = el.assignedNodes({ flatten: true });
        if (assigned.length) { for (const c of assigned) child(c, at, ctx, cursor, pre); return; }
      }
      // Table rows are laid out in DOM order: start near the region and stop past it. Walking
      // all 5,000 rows of table.html cost ~15 ms of the scan's ~20 ms.
      const root = rootOf(el);
      const rows = ROW_GROUPS.has(el.localName) && !root;
      if (root) tally.watchable = false;
      let c = rows && el.childElementCount > 64 ? firstRowNear(el, ctx.region) : (root || el).firstChild;
      for (; c; c = c.nextSibling) {
        if (records.length >= max) { truncated = true; return; }
        if (child(c, at, ctx, cursor, pre) === BELOW && rows) { partial = true; tally.cut.add(el); return; }
      }
    }

    function child(c, at, ctx, cursor, pre) {
      if (c.nodeType === 1) return element(c, at, ctx, cursor);
      if (c.nodeType === 3) text(c, at, ctx, pre);
    }

    // The first row that may reach the region (binary search over the rows' tops), a couple
    // of rows early; the group's first child when the rows do not look ordered.
    function firstRowNear(group, region) {
      const rows = group.children, n = rows.length;
      const bottom = (i) => {
        for (let j = i; j < n && j < i + 16; j++) {
          const r = rows[j].getBoundingClientRect();
          if (r.width > 0 || r.height > 0) return r.bottom;
        }
        return NaN;
      };
      let lo = 0, hi = n - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const b = bottom(mid);
        if (Number.isNaN(b)) return group.firstChild;
        if (b < region.t) lo = mid + 1; else hi = mid;
      }
      const first = Math.max(0, lo - 2);
      if (first > 0) { partial = true; tally.cut.add(group); }
      return rows[first];
    }

    function text(t, at, ctx, pre) {
      const s = textName(t, pre);
      if (!s) return;
      let b;
      if (textBounds && s !== ' ') {
        ctx.range.selectNodeContents(t);
        const r = ctx.range.getBoundingClientRect();
        // No box: not rendered (a closed <details>' text, collapsed whitespace).
        if (r.width <= 0 && r.height <= 0) return;
        if (outside(r, ctx.region)) { partial = true; tally.cut.add(t); return; }
        b = [round(r.left + ctx.ox), round(r.top + ctx.oy), round(r.width), round(r.height)];
      }
      const rec = { p: at, k: keyOf(t), s };
      if (b) rec.b = b;
      push(t, rec);
    }

    function element(el, at, ctx, parentCursor) {
      const tag = el.localName;
      if (SKIP.has(tag) || el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return;
      const r = el.getBoundingClientRect();
      const boxed = r.width > 0 || r.height > 0;
      if (boxed && outside(r, ctx.region)) { partial = true; tally.cut.add(el); return r.top > ctx.region.b ? BELOW : undefined; }
      const style = ctx.win.getComputedStyle(el);
      const display = style.display;
      if (display === 'none' || style.visibility !== 'visible' || style.opacity === '0') return;
      // No box: hidden by an ancestor (closed <details>, content-visibility) unless it is
      // display:contents (which has no box of its own) or just empty.
      if (!boxed && display !== 'contents' && !el.checkVisibility()) return;
      // An empty box that shows a picture once it arrives: its arrival fires nothing this
      // world hears, so the scan is not watched; the backend may wait for it once.
      if ((r.width === 0 || r.height === 0) && !el.firstElementChild && !outside(r, ctx.region)) {
        const picture = pictureOf(el, tag, style);
        if (picture) {
          tally.watchable = false;
          if (!waitedPictures.has(picture) && tally.pictures.length < 16) tally.pictures.push(picture);
        }
      }
      if (mayHostClosedRoot(el, tag, r)) { hostQueue.push(el); tally.watchable = false; }
      const role = widgetRole(el);
      const rec = { p: at, k: keyOf(el), g: tag };
      if (role) rec.r = role;
      let name = nameOf(el, role);
      // An icon the page draws by style alone: its class (else its id) is the page's own
      // word for it, a name of last resort, below text, aria and title.
      const icon = !name && !role && iconOf(el, style, r);
      if (icon) name = iconName(el);
      if (name) rec.n = name;
      const value = valueOf(el, role, tag);
      if (value) rec.v = value;
      if (tag === 'input' && el.value && passwords.size < SECRETS_MAX && holdsPassword(el)) passwords.add(el.value.slice(0, SECRET_CAP));
      let f = 0;
      if (disabledOf(el)) f |= F.disabled;
      if (el === focus) f |= F.focused;
      if (el.tabIndex >= 0) f |= F.focusable;
      const textual = role === 'textbox' || role === 'searchbox' || role === 'spinbutton' || (role === 'combobox' && tag === 'input');
      if (textual || el.isContentEditable) f |= F.editable;
      if (el.readOnly === true || el.getAttribute('aria-readonly') === 'true') f |= F.readonly;
      if (tag === 'textarea' || el.getAttribute('aria-multiline') === 'true' || (role === 'textbox' && el.isContentEditable)) f |= F.multiline;
      if (el.getAttribute('draggable') === 'true' || el.hasAttribute('aria-grabbed')) f |= F.draggable;
      const drop = el.getAttribute('aria-dropeffect');
      if (drop && drop !== 'none') f |= F.drop;
      const cursor = style.cursor;
      // An <a> without href that shows something is a script's link: its listener is
      // often delegated to an ancestor (a calendar's turners and days), so no cursor or
      // onclick says so. An empty one is a bookmark.
      const scripted = tag === 'a' && !role && (name || el.hasChildNodes());
      // A pointer cursor inherited by a list's items still marks each one a choice (a
      // menu drawn under its opener's pointer), unlike the spans inside one button.
      if (INTERACTIVE.has(role) || el.hasAttribute('onclick') || (cursor === 'pointer' && (parentCursor !== 'pointer' || tag === 'li')) || (icon && name) || scripted) f |= F.clickable;
      if (tag === 'select') f |= F.select;
      if (tag === 'input' && DATE_TYPES.has(el.type)) f |= F.setOnly;
      if (!display.startsWith('inline') && display !== 'contents') f |= F.block;
      const sel = selectedOf(el, role, tag);
      if (sel !== null) f |= F.hasSelected | (sel ? F.selected : 0);
      const exp = expandedOf(el, role, tag);
      if (exp !== null) f |= F.hasExpanded | (exp ? F.expanded : 0);
      // A folder known closed only by its hidden list is what a person clicks to open it;
      // its pointer cursor is often inherited from the tree's items, so none says so.
      if (exp === false && !role && !el.hasAttribute('aria-expanded')) f |= F.clickable;
      // Own scrollable overflow: its children are clipped to its box (± the margin).
      let region = ctx.region;
      // Overflow first: most elements show theirs, and then their scroll sizes (four
      // layout reads) do not matter.
      const ox = style.overflowX, oy = style.overflowY;
      if (boxed && (ox !== 'visible' || oy !== 'visible') &&
          (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)) {
        tally.scrollers.push(el);
        const scrolls = (o) => o === 'auto' || o === 'scroll';
        if ((scrolls(oy) && el.scrollHeight > el.clientHeight + 1) || (scrolls(ox) && el.scrollWidth > el.clientWidth + 1)) f |= F.scrollable;
        // How far its own text is scrolled: what "scroll it to the bottom" moves and checks.
        if (scrolls(oy) && el.scrollHeight > el.clientHeight + 1) rec.y = [round(el.scrollTop), round(el.scrollHeight - el.clientHeight)];
        if (ox !== 'visible' && oy !== 'visible' && !whole) {
          const mx = margin * r.width, my = margin * r.height;
          region = { l: Math.max(region.l, r.left - mx), t: Math.max(region.t, r.top - my),
            r: Math.min(region.r, r.right + mx), b: Math.min(region.b, r.bottom + my) };
          tally.clips.set(el, region);
        }
      }
      if (f) rec.f = f;
      // A zero-size box is sent too (the control is then shown invisible), display:contents has none.
      if (boxed || display !== 'contents') rec.b = [round(r.left + ctx.ox), round(r.top + ctx.oy), round(r.width), round(r.height)];
      let attrs = null;
      for (const a of el.hasAttributes() ? KEPT : []) {
        const v = el.getAttribute(a);
        if (v !== null && v !== '') (attrs || (attrs = {}))[a] = clip(v, VALUE_CAP);
      }
      if (attrs) rec.a = attrs;
      const at2 = push(el, rec);
      elementRecords++;
      if (tag === 'input' || tag === 'textarea' || tag === 'select') tally.controls.push(el);
      if (tag === 'iframe' || tag === 'frame') {
        tally.watchable = false;
        let inner = null;
        try { inner = el.contentDocument; } catch (e) { /* cross-origin: the iframe alone */ }
        if (!inner && el.src && !el.src.startsWith('about:')) opaque++;
        // Where its content begins in the top viewport: the backend scans it in a world of its own.
        if (!inner) {
          const [ix, iy] = contentOrigin(el, r);
          opaqueAt.push([at2, ctx.ox + ix, ctx.oy + iy]);
        }
        if (inner && inner.defaultView) {
          const [ix, iy] = contentOrigin(el, r);
          const w = el.clientWidth, h = el.clientHeight;
          // The parent's region in the child's coordinates, within the child's own viewport ± margin.
          const g = whole ? everywhere : { l: Math.max(region.l - ix, -margin * w), t: Math.max(region.t - iy, -margin * h),
            r: Math.min(region.r - ix, w + margin * w), b: Math.min(region.b - iy, h + margin * h) };
          enterDocument(inner, at2, ctx.ox + ix, ctx.oy + iy, g);
        }
        return;
      }
      if (tag === 'select') { options(el, at2); return; }
      // Leaves for our purposes: controls carry their state, svg its name.
      if (tag === 'input' || tag === 'textarea' || tag === 'svg' || tag === 'img') return;
      // Content that is not rendered (but still has boxes when asked): a closed <details>
      // shows its summary only; content-visibility:hidden shows nothing inside.
      if (style.contentVisibility === 'hidden') return;
      const sub = region === ctx.region ? ctx : Object.assign({}, ctx, { region });
      if (tag === 'details' && !el.open) {
        const summary = Array.prototype.find.call(el.children, (c) => c.localName === 'summary');
        if (summary) element(summary, at2, sub, cursor);
        return;
      }
      children(el, at2, sub, cursor, keepsSpaces(style));
    }

    // A native select's options have no boxes while it is closed: listed without bounds,
    // as the AX tree lists them.
    function options(select, at) {
      let n = 0;
      for (const o of select.options) {
        if (++n > 500) { partial = true; tally.cut.add(select); break; }
        if (o.hidden) continue;
        const rec = { p: at, k: keyOf(o), g: 'option', r: 'option' };
        const name = nameOf(o, 'option');
        if (name) rec.n = name;
        let f = F.hasSelected | (o.selected ? F.selected : 0);
        if (disabledOf(o)) f |= F.disabled;
        rec.f = f;
        push(o, rec);
        elementRecords++;
      }
    }

    const top = whole ? everywhere : { l: -margin * W, t: -margin * H, r: W + margin * W, b: H + margin * H };
    enterDocument(document, -1, 0, 0, top);

    // The focused element and open modal dialogs belong in every scan, wherever they are.
    const extras = [];
    if (focus && focus !== focus.ownerDocument.body && !emitted.has(focus)) extras.push([focus, focus.ownerDocument]);
    for (const ctx of docs.slice()) {
      for (const d of ctx.doc.querySelectorAll(DIALOGS)) {
        const role = roleOf(d);
        if (d.localName !== 'dialog' && role !== 'dialog' && role !== 'alertdialog') continue;
        if (!emitted.has(d)) extras.push([d, ctx.doc]);
      }
    }
    // Past a truncated walk, the extras still fit.
    max += 2000;
    for (const [node, doc] of extras) {
      if (emitted.has(node) || !node.isConnected) continue;
      if (!node.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      if (node.closest('[aria-hidden="true"], [inert]')) continue;
      const ctx = docs.find((c) => c.doc === doc);
      if (!ctx) continue;
      let a = flatParent(node);
      while (a && !emitted.has(a)) a = flatParent(a);
      const parent = a ? emitted.get(a) : 0;
      let cursor = 'auto';
      try { cursor = ctx.win.getComputedStyle(node.parentElement || node).cursor; } catch (e) { /* none */ }
      element(node, parent, Object.assign({}, ctx, { region: everywhere }), cursor);
    }
    sweepKeys(records.length);
    Object.assign(tally, { emitted, records, top, truncated });
    // The URL as the frame tree reports it (no fragment), and whether the top document has
    // canvases (the backend reads them by OCR only then): the backend asks nothing else.
    const href = location.href, hash = href.indexOf('#');
    const out = { w: [W, H], e: elements, o: Math.max(0, elements - elementRecords), t: truncated,
      x: partial, c: opaque, u: hash < 0 ? href : href.slice(0, hash),
      cv: document.getElementsByTagName('canvas').length, r: records };
    const pw = passwordsOf(docs.map((c) => c.doc), passwords);
    if (pw.length) out.pw = pw;
    if (opaqueAt.length) out.of = opaqueAt;
    if (hostQueue.length) out.sh = hostQueue.length;
    return out;
  }

  // Whether an action's expected effect (settle.rs's ExpectedEffect, as observe.rs sends
  // it) is on the page: {t: 'value'|'checked'|'option'|'focus'|'expanded'|'selected'|'hidden'|'reaction',
  // k: scan key, v} or {t: 'url', v}.
  function effectLanded(c) {
    if (c.t === 'url') {
      const n = (u) => String(u).replace(/\/+$/, '');
      return n(location.href) === n(c.v);
    }
    const el = elementOfKey(c.k);
    if (c.t === 'hidden') return !el || !el.checkVisibility({ visibilityProperty: true });
    // Whether the page reacted is settling's to judge (the probe moved since the action).
    if (c.t === 'reaction') return true;
    if (!el) return false;
    const tag = el.localName;
    switch (c.t) {
      case 'expanded': return expandedOf(el, roleOf(el), tag) === c.v;
      case 'selected': return selectedOf(el, roleOf(el), tag) === true;
      case 'focus': return deepFocus(document) === el;
      case 'checked': return selectedOf(el, roleOf(el), tag) === c.v;
      case 'value':
        if (tag === 'input' || tag === 'textarea') {
          try { return el.value === inputForm(el, c.v); } catch (e) { return el.value === c.v; }
        }
        return el.isContentEditable && el.textContent === c.v;
      case 'option': {
        // Any selected option: a multiple select keeps the earlier ones.
        const norm = (s) => String(s).trim().replace(/\s+/g, ' ').toLowerCase();
        const opts = el instanceof HTMLSelectElement ? Array.from(el.selectedOptions) : [];
        return opts.some((o) => norm(o.label || o.text) === norm(c.v) || norm(o.value) === norm(c.v));
      }
    }
    return false;
  }

  // The connected element the last scans keyed `k`, or null.
  function elementOfKey(k) {
    const ref = nodeOfKey.get(k);
    const el = ref && ref.deref();
    return el && el.isConnected && el.nodeType === 1 ? el : null;
  }

  // Whether each style-written element was shown at the last effect probe: an animation
  // that ends by showing or hiding it is a change, not a cosmetic one.
  const shownOf = new WeakMap();
  let styleChanges = 0;
  // The DOM mutation count without the style writes that cannot change what the next
  // observation reads once the effect holds: writes to an element that neither holds
  // the target (it would be moving) nor switched between shown and hidden. A running
  // finite CSS animation or transition of the target or what holds it counts too.
  function steadyMutations(target) {
    for (const el of styled) {
      const shown = el.isConnected && el.checkVisibility({ visibilityProperty: true });
      const was = shownOf.get(el);
      shownOf.set(el, shown);
      if ((was !== undefined && was !== shown) || (target && el.contains(target))) styleChanges++;
    }
    if (styledOver) styleChanges++;
    if (target && document.getAnimations().some((a) => {
      const t = a.effect && a.effect.target;
      return a.playState === 'running' && !!t && t.contains(target)
        && Number.isFinite(a.effect.getComputedTiming().endTime);
    })) styleChanges++;
    return mutations - styleWrites + styleChanges;
  }

  globalThis.__arc = {
    // [href, readyState, DOM mutations so far, focus, scrollX, scrollY, element count],
    // and with `check` the steady mutation count (`steadyMutations`) and whether that
    // expected effect is on the page.
    probe(check) {
      flushMutations();
      const a = document.activeElement;
      const out = [location.href, document.readyState, mutations,
        a ? a.tagName + '#' + a.id : '', Math.round(scrollX), Math.round(scrollY),
        document.getElementsByTagName('*').length];
      if (check) out.push(steadyMutations(check.k === undefined ? null : elementOfKey(check.k)),
        effectLanded(check));
      styled.clear();
      styledOver = false;
      return out;
    },

    // Waits at most `ms` for the pictures the last scan found on their way (each once in
    // this document); true when every one arrived (a broken one counts as arrived: it is
    // as done as it gets).
    pictures(ms) {
      const urls = pendingPictures;
      pendingPictures = [];
      for (const u of urls) waitedPictures.add(u);
      const arrived = Promise.all(urls.map((u) => {
        const im = new Image();
        im.src = u;
        return im.decode().catch(() => undefined);
      })).then(() => true);
      return Promise.race([arrived, new Promise((done) => setTimeout(() => done(false), ms))]);
    },

    // Scrolls the node into view if needed and returns where to aim in the top viewport,
    // with a hit test at that point: {x, y, hit, covered}.
    // The next host the scans found that may hold a closed shadow root (null: none left);
    // each is handed out once. The backend asks DevTools and hands a root back (`adoptRoot`).
    nextHost() {
      const el = hostQueue.shift() || null;
      if (el) askedHosts.add(el);
      return el;
    },
    adoptRoot(root) {
      if (!root || !root.host) return false;
      closedRoots.set(root.host, root);
      markDirty();
      return true;
    },

    locate(node) {
      if (!node.isConnected) return { gone: true };
      let box = visibleBox(node, true);
      if (!box) {
        const target = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
        // Scrolls every scroller between the node and the viewport, its own list too.
        target.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        box = visibleBox(node, true);
      }
      // A positioned node may escape an ancestor's clip: its box within the viewport then.
      if (!box) box = visibleBox(node, false);
      if (!box) return { offscreen: true };
      const [ox, oy] = frameOffset(winOf(node));
      // The centre first; when something covers it, a point of the element's own box that
      // still lands on it (a button half under another). Hit-tested like the centre, so a
      // fully covered element stays covered.
      let lx = box.left + box.width / 2, ly = box.top + box.height / 2;
      let [hit, covered] = hits(node, lx, ly);
      for (const [fx, fy] of hit ? [] : AIM_POINTS) {
        const px = box.left + Math.min(Math.max(box.width * fx, 2), box.width - 2);
        const py = box.top + Math.min(Math.max(box.height * fy, 2), box.height - 2);
        if (hits(node, px, py)[0]) { lx = px; ly = py; hit = true; covered = ''; break; }
      }
      return { x: lx + ox, y: ly + oy, lx, ly, hit, covered };
    },

    // Re-checks, just before the press, that the point still lands on the node, and arms
    // the watch that `pressLanding` reads.
    hitAt(node, lx, ly) {
      if (!node.isConnected) return 'gone';
      const [hit, covered] = hits(node, lx, ly);
      if (!hit) return covered;
      watchWindow(window);
      watchWindow(winOf(node));
      watch = { node, host: outerHost(node) };
      return '';
    },

    // Where a mouse selection of all the node's shown text starts and ends: just inside
    // its first visible character and its last, in the top viewport ({from, to}), after
    // scrolling it into view when either end is out; {gone}, {empty}, {offscreen} (both
    // ends never fit the viewport at once) or {covered} (the press would land elsewhere).
    textSpan(node) {
      if (!node.isConnected) return { gone: true };
      const ends = () => shownChars(node);
      let span = ends();
      if (!span) return { empty: true };
      const win = winOf(node);
      const inside = (r) => r.top >= 0 && r.left >= 0 && r.bottom <= win.innerHeight && r.right <= win.innerWidth;
      if (!inside(span[0]) || !inside(span[1])) {
        const el = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
        el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
        span = ends();
        if (!span || !inside(span[0]) || !inside(span[1])) return { offscreen: true };
      }
      const [first, last] = span;
      const inset = (r) => Math.min(1, r.width / 4);
      const fx = first.left + inset(first), fy = first.top + first.height / 2;
      const tx = last.right - inset(last), ty = last.top + last.height / 2;
      const start = hits(node, fx, fy);
      if (!start[0]) return { covered: start[1] };
      const [ox, oy] = frameOffset(win);
      return { from: [fx + ox, fy + oy], to: [tx + ox, ty + oy] };
    },

    // What the page's selection holds when it is not exactly the node's shown text
    // (whitespace aside, as a reader compares), else ''.
    selectionMismatch(node) {
      const sel = winOf(node).getSelection();
      const got = sel ? sel.toString() : '';
      const el = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
      const want = node.nodeType === Node.TEXT_NODE ? node.textContent : el.innerText;
      const bare = (s) => (s || '').replace(/\s+/g, '');
      if (bare(got) === bare(want) && bare(want) !== '') return '';
      return JSON.stringify(got.length > 80 ? got.slice(0, 80) + '…' : got);
    },

    // Where the armed press went: null when it reached the node (or nothing was armed),
    // else what received it ({element: {element, name, text}, began}).
    pressLanding() {
      const w = watch;
      watch = null;
      if (!w) return null;
      const down = w.mousedown, up = w.mouseup;
      const on = (hit) => reaches(w.node, hit) || (!!w.host && hit === w.host);
      if (down && on(down) && (!up || on(up))) return null;
      // The press began on the node (its mousedown, and the focus that comes with it)
      // and only the release went elsewhere: the page covered the node in answer.
      const began = !!(down && on(down));
      const miss = down && !began ? down : up;
      if (!miss) return { element: { element: 'no element of the target\'s document (another frame took it, or the page hid the event)', name: '', text: '', also: [] }, began };
      const el = miss.nodeType === 1 ? miss : miss.parentElement;
      return el ? { element: pressedAs(el), began } : null;
    },

    // What pressing `node` (or, when null, Enter/Space on the focused element) would
    // press, beyond the accessibility name: {text, submitter} (submitter only for Enter).
    pressFacts(node, enter, own) {
      const el = node ? (node.nodeType === 1 ? node : node.parentElement) : deepFocus(document);
      if (!el || !el.isConnected) return {};
      const out = { pressed: pressedBy(el, own) };
      const submitter = enter ? submitterOf(el) : null;
      if (submitter) out.submitter = submitter;
      return out;
    },

    // The focused element as this world sees it, when it may host a shadow root this
    // world cannot open (a closed one, where the focus then is): the backend asks
    // DevTools whether it does. Else null.
    focusedHost() {
      const el = deepFocus(document);
      return el && el !== document.body && el !== document.documentElement && !el.shadowRoot ? el : null;
    },

    // The frame element the focus is in when this world cannot enter its document (a
    // cross-origin frame): the backend reads the focus in that frame's document. Else null.
    focusedFrame() {
      const el = deepFocus(document);
      if (!el || (el.localName !== 'iframe' && el.localName !== 'frame')) return null;
      let inner = null;
      try { inner = el.contentDocument; } catch (e) { /* cross-origin */ }
      return inner ? null : el;
    },

    // The element focused inside `root` (through open roots) when it may host a closed
    // root of its own (the backend asks DevTools whether it does). Else null.
    focusedHostIn(root) {
      let el = root.activeElement;
      while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
      return el && !el.shadowRoot ? el : null;
    },

    // `pressFacts` for the element focused inside `root` (a closed shadow root the
    // backend handed us).
    pressFactsInRoot(root, enter) {
      let el = root.activeElement;
      while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
      return el ? this.pressFacts(el, enter, true) : {};
    },

    // What a press at viewport point (x, y) of the top document would press (through
    // open shadow roots): the element there and what it acts through (`pressedBy`). Arms
    // the watch `pressLanding` reads with what the gate judged, so a press that lands on
    // anything else (an overlay that appeared since) is reported.
    pointPressable(x, y) {
      let el = document.elementFromPoint(x, y);
      while (el && rootOf(el)) {
        const inner = rootOf(el).elementFromPoint(x, y);
        if (!inner || inner === el) break;
        el = inner;
      }
      return armedAt(el);
    },

    // What pressing `node` presses, without arming the watch: a frame element the press
    // passes through into the frame's document.
    pressedByNode(node) {
      return pressedBy(node && node.nodeType !== 1 ? node.parentElement : node, true);
    },

    // As `pointPressable`, for the node the renderer's hit test found at the point
    // (`DOM.getNodeForLocation`: inside closed shadow roots and same-origin frames).
    pressedAtNode(node) {
      return armedAt(node && node.nodeType !== 1 ? node.parentElement : node);
    },


    // The focused element when text typed now would enter it: {element, password}; else
    // {element: what has focus, or ''} with entry false.
    focusedEntry() {
      const el = deepFocus(document);
      if (!el || el === document.body || el === document.documentElement) return { entry: false, element: '' };
      const TEXT = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '']);
      const field = (el.localName === 'input' && TEXT.has(el.type)) || el.localName === 'textarea';
      const entry = el.isContentEditable || (field && !el.disabled && !el.readOnly);
      return { entry, element: describe(el), password: el.localName === 'input' && el.type === 'password' };
    },

    // Focuses a text control and selects its content, so typing replaces it.
    focusSelect(el) {
      el.focus();
      if (typeof el.select === 'function') { el.select(); return true; }
      if (el.isContentEditable) {
        const range = el.ownerDocument.createRange();
        range.selectNodeContents(el);
        const sel = winOf(el).getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        return true;
      }
      return el.ownerDocument.activeElement === el;
    },

    // Sets a value through the element's own setter and fires input/change, as a
    // framework-controlled field expects.
    setValue(el, value) {
      if (el instanceof HTMLSelectElement) return this.selectOption(el, value);
      if (el.isContentEditable) {
        el.textContent = value;
      } else {
        const input = el.localName === 'input';
        if (input) value = inputForm(el, value);
        const proto = Object.getPrototypeOf(el);
        const desc = Object.getOwnPropertyDescriptor(proto, 'value');
        const set = (v) => { if (desc && desc.set) desc.set.call(el, v); else el.value = v; };
        const before = el.value;
        set(value);
        if (input && value !== '' && el.value === '') {
          // The input sanitized the value away (a time, month or week in another form).
          set(before);
          throw new Error('the ' + el.type + ' input refused ' + JSON.stringify(String(value)));
        }
      }
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return String(el.value !== undefined ? el.value : el.textContent);
    },

    // Chooses the option whose label (or value) matches, case-insensitively.
    selectOption(el, wanted) {
      if (!(el instanceof HTMLSelectElement)) throw new Error('not a native <select>: click its options instead');
      const norm = (s) => String(s).trim().replace(/\s+/g, ' ').toLowerCase();
      const want = norm(wanted);
      const options = Array.from(el.options);
      const match = options.find((o) => norm(o.label || o.text) === want) || options.find((o) => norm(o.value) === want);
      if (!match) throw new Error('no option ' + JSON.stringify(String(wanted)) + '; options: ' + options.map((o) => JSON.stringify(o.label || o.text)).join(', '));
      if (match.disabled) throw new Error('option ' + JSON.stringify(match.label) + ' is disabled');
      el.focus();
      match.selected = true;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return match.label || match.text;
    },

    // The viewport scan: {w: [width, height], e: elements, o: left out, t: truncated,
    // x: something rendered lay outside the walked region, c: cross-origin frames not entered, r: records}.
    // Options: {margin: fraction of the viewport walked beyond each edge, max: records, textBounds,
    // whole: walk everything when the page has at most this many elements, since: the revision
    // the caller holds}. Each scan has a revision (`rev`); {same: since} when nothing changed.
    scan(options) { return scanOrSame(options || {}); },

    // The node a scan keyed `key`, if it still exists.
    byKey(key) {
      const ref = nodeOfKey.get(key);
      return (ref && ref.deref()) || null;
    },

    // One node as a scan would record it (for freshness): [role, name, value, disabled,
    // selected, expanded]; null once the node left its document.
    read(node) {
      if (!node || !node.isConnected) return null;
      if (node.nodeType === 3) {
        const p = node.parentElement;
        const pre = !!p && keepsSpaces(p.ownerDocument.defaultView.getComputedStyle(p));
        return ['StaticText', textName(node, pre), '', false, null, null];
      }
      if (node.nodeType === 9) return ['RootWebArea', clip(node.title.trim(), NAME_CAP), '', false, null, null];
      return readElement(node);
    },
  };
})
