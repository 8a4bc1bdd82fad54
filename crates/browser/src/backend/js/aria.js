// The one in-page role and accessible-name engine: the backend's scan (world.js) and the
// eval assertion engine (arc-eval's page.js) are both called with it, so a role locator
// finds what the snapshot names. An expression: it evaluates to the engine object.
//
// The rules approximate Chromium's own (the full read's truth, platform notes), which
// follow WAI-ARIA 1.2, accname 1.2 and HTML-AAM; where the two old engines differed, the
// comment on the rule says why it is this way (fixtures/site/names.html has each case).
(() => {
  'use strict';
  const NAME_CAP = 200;
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link',
    'title', 'base', 'datalist', 'param', 'source', 'track']);
  const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em',
    'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u',
    'var', 'wbr', 'label', 'img', 'input', 'button', 'select', 'textarea', 'output']);
  // Labelable elements (HTML): the ones `<label>` names.
  const CONTROLS = new Set(['input', 'select', 'textarea', 'button', 'meter', 'progress', 'output']);
  const DISABLEABLE = new Set(['button', 'input', 'select', 'textarea', 'option', 'optgroup', 'fieldset']);
  // Roles named from their content (ARIA 1.2 "name from: contents", as Chromium: not
  // listitem, paragraph, status or alert — their names are the author's; the snapshot
  // still shows a nameless one's only text, see `shownName`).
  const FROM_CONTENT = new Set(['button', 'link', 'heading', 'option', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'cell', 'gridcell', 'columnheader', 'rowheader',
    'treeitem', 'checkbox', 'radio', 'switch', 'tooltip', 'legend', 'caption']);
  // Concrete WAI-ARIA 1.2 roles: the role attribute's first of these wins (its other
  // tokens are fallbacks), so `role="toggle button"` is a button.
  const ROLES = new Set(('alert alertdialog application article banner blockquote button caption ' +
    'cell checkbox code columnheader combobox complementary contentinfo definition deletion ' +
    'dialog directory document emphasis feed figure form generic grid gridcell group heading ' +
    'img image insertion link list listbox listitem log main mark marquee math menu menubar ' +
    'menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph ' +
    'presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search ' +
    'searchbox separator slider spinbutton status strong subscript superscript switch tab ' +
    'table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem').split(' '));

  // Strings that JSON (and serde) accept: no lone surrogates, even when clipped.
  function clip(s, cap) {
    if (s.length > cap) s = s.slice(0, cap);
    return s.isWellFormed() ? s : s.toWellFormed();
  }
  const squash = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();

  // The role, lower case; '' for none (generic, presentational, a hidden input).
  function roleOf(el) {
    const tag = el.localName;
    const attr = el.getAttribute('role');
    if (attr) {
      // Role tokens match ASCII case-insensitively (as Chromium).
      const r = attr.trim().toLowerCase().split(/\s+/).find((t) => ROLES.has(t));
      // ARIA's conflict resolution: a focusable element keeps its own role.
      const presentational = r === 'none' || r === 'presentation';
      if (presentational && !(el.tabIndex >= 0 && !el.matches(':disabled'))) return '';
      if (r && !presentational) return r;
    }
    switch (tag) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
      case 'button': return 'button';
      case 'input': {
        const t = el.type;
        // A file input is a button (Chromium; what a person presses to choose a file).
        if (t === 'button' || t === 'submit' || t === 'reset' || t === 'image' || t === 'file') return 'button';
        if (t === 'checkbox' || t === 'radio') return t;
        if (t === 'range') return 'slider';
        if (t === 'number') return 'spinbutton';
        if (t === 'hidden') return '';
        // A text input with suggestions (`list`) is a combobox (HTML-AAM).
        if (el.hasAttribute('list')) return 'combobox';
        return t === 'search' ? 'searchbox' : 'textbox';
      }
      case 'textarea': return 'textbox';
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'option': return 'option';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'img': return el.getAttribute('alt') === '' ? '' : 'img';
      case 'svg': return el.getAttribute('aria-label') || el.querySelector(':scope > title') ? 'img' : '';
      case 'table': return 'table';
      case 'tr': return 'row';
      case 'td': return 'cell';
      // A header cell heads its row when it says so (HTML-AAM), and, without a scope, when
      // it sits outside <thead> in a row that also has data cells (Chromium's
      // AXTableCell heuristic: "<tr><th>Year</th><td><input>" is a row header).
      case 'th': {
        const scope = el.getAttribute('scope');
        if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
        if (scope === 'col' || scope === 'colgroup') return 'columnheader';
        const row = el.parentElement;
        if (!row || row.localName !== 'tr' || row.parentElement?.localName === 'thead') return 'columnheader';
        return Array.prototype.some.call(row.children, (c) => c.localName === 'td') ? 'rowheader' : 'columnheader';
      }
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return 'listitem';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'form': return 'form';
      case 'label': return 'label';
      case 'p': return 'paragraph';
      case 'details': case 'fieldset': case 'optgroup': return 'group';
      case 'summary': return 'button';
      case 'dialog': return 'dialog';
      case 'iframe': case 'frame': return 'iframe';
      case 'aside': return 'complementary';
      case 'article': return 'article';
      case 'hr': return 'separator';
      case 'progress': return 'progressbar';
      case 'meter': return 'meter';
      case 'caption': return 'caption';
    }
    if (el.hasAttribute('contenteditable') && el.isContentEditable &&
        !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
    return '';
  }

  // Text under a node, whitespace-collapsed, stopping past `cap` characters: inline
  // elements join their text, blocks are separated by a space ("<div>Add</div><div>item
  // </div>" is "Add item", as accname), an image contributes its alt, controls and hidden
  // subtrees nothing. Cheap checks only (hidden, aria-hidden): this runs for every named
  // cell and link of a scan.
  function textOf(node, cap) {
    const out = [];
    let len = 0;
    const walk = (n) => {
      for (let c = (n.shadowRoot || n).firstChild; c && len < cap; c = c.nextSibling) {
        if (c.nodeType === 3) { out.push(c.data); len += c.data.length; continue; }
        if (c.nodeType !== 1) continue;
        const t = c.localName;
        if (SKIP.has(t) || c.hidden || c.getAttribute('aria-hidden') === 'true') continue;
        if (t === 'input' || t === 'select' || t === 'textarea' || t === 'svg') continue;
        if (t === 'img') { const a = c.getAttribute('alt'); if (a) { out.push(a); len += a.length; } continue; }
        if (t === 'br') { out.push(' '); continue; }
        const block = !INLINE.has(t);
        if (block) out.push(' ');
        walk(c);
        if (block) out.push(' ');
      }
    };
    walk(node);
    return clip(squash(out.join('')), cap);
  }

  // The accessible name (accname 1.2's order), whitespace-collapsed and at most `cap`
  // characters: aria-labelledby, aria-label, the element's own native name (a <label>,
  // a button input's value, alt, caption, legend), its content for roles named from
  // content, title, and last a text field's placeholder (HTML-AAM puts title first).
  function nameOf(el, role, cap = NAME_CAP) {
    const tag = el.localName;
    const done = (s) => clip(squash(s), cap);
    let v = el.getAttribute('aria-labelledby');
    if (v) {
      const root = el.getRootNode();
      const parts = [];
      for (const id of v.split(/\s+/)) {
        const target = id && root.getElementById && root.getElementById(id);
        // A referenced element's own aria-label is its name (accname 2C); its hidden
        // parts are not (accname 2A: hidden descendants of a visible reference).
        if (target) parts.push(squash(target.getAttribute('aria-label')) || textOf(target, cap));
      }
      const s = squash(parts.join(' '));
      if (s) return done(s);
    }
    v = squash(el.getAttribute('aria-label'));
    if (v) return done(v);
    // A <label> before a button input's value: Chromium names every labelable element
    // from its labels first (the value is the fallback).
    if (CONTROLS.has(tag) && el.labels && el.labels.length) {
      const s = squash(Array.from(el.labels, (l) => textOf(l, cap)).join(' '));
      if (s) return done(s);
    }
    if (tag === 'input') {
      const t = el.type;
      // An unlabelled submit or reset says so (HTML-AAM's default label).
      if (t === 'button' || t === 'submit' || t === 'reset') {
        const s = squash(el.value) || (t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '');
        if (s) return done(s);
      }
      if (t === 'image') return done(el.alt || el.value || 'Submit');
    }
    if (tag === 'img' || tag === 'area') {
      v = squash(el.getAttribute('alt'));
      if (v) return done(v);
    } else if (tag === 'svg') {
      const t = el.querySelector(':scope > title');
      if (t && squash(t.textContent)) return done(t.textContent);
    } else if (tag === 'table') {
      if (el.caption) { const s = textOf(el.caption, cap); if (s) return s; }
    } else if (tag === 'fieldset') {
      const l = el.querySelector(':scope > legend');
      if (l) { const s = textOf(l, cap); if (s) return s; }
    }
    // Content only when it says something: an empty button falls through to its title.
    if (FROM_CONTENT.has(role) && tag !== 'input' && tag !== 'select' && tag !== 'textarea') {
      const s = textOf(el, cap);
      if (s) return s;
    }
    v = squash(el.getAttribute('title'));
    if (v) return done(v);
    // Placeholder only where it is shown: a text input or textarea.
    v = squash(el.getAttribute('placeholder'));
    if (v && (tag === 'input' || tag === 'textarea')) return done(v);
    return '';
  }

  // The name the snapshot shows: the accessible name, or for a nameless element with a
  // role whose content is text alone (no element with a role inside), that text — the
  // backend's prune gives such a container its only text run as its name.
  function shownName(el, role, cap = NAME_CAP) {
    const name = nameOf(el, role, cap);
    if (name || !role) return name;
    for (const d of el.querySelectorAll('*')) {
      if (!SKIP.has(d.localName) && roleOf(d)) return '';
    }
    return textOf(el, cap);
  }

  // Disabled natively (a :disabled form control, also inside a disabled fieldset) or by
  // aria-disabled.
  function disabledOf(el) {
    if (DISABLEABLE.has(el.localName) && el.matches(':disabled')) return true;
    return el.getAttribute('aria-disabled') === 'true';
  }

  // Every other name the page gives `el`, which the accessible name's first source hides:
  // its tooltip, aria-label and aria-description, an image's alt; inside it SVG <title>s,
  // alts, tooltips and aria-labels (an icon button showing "🗑" whose tooltip says
  // "Delete"), not those of controls (`nested`, a selector) nested in it; and the labels
  // pointing at it. Bounded.
  const NAMED_INSIDE = 'title, [title], [alt], [aria-label], [aria-description]';
  function otherNames(el, nested) {
    const out = new Set();
    const add = (s) => { const t = clip(String(s || '').replace(/\s+/g, ' ').trim(), NAME_CAP); if (t) out.add(t); };
    const own = (e) => {
      if (e.localName === 'title') { add(e.textContent); return; }
      for (const a of ['title', 'aria-label', 'aria-description', 'alt']) add(e.getAttribute(a));
    };
    own(el);
    let n = 0;
    for (const d of el.querySelectorAll(NAMED_INSIDE)) {
      if (++n > 32) break;
      const inner = d.closest(nested);
      if (inner && inner !== el && el.contains(inner)) continue;
      own(d);
    }
    if (el.labels) for (const l of el.labels) add(textOf(l, NAME_CAP));
    return Array.from(out);
  }

  return Object.freeze({ NAME_CAP, SKIP, INLINE, CONTROLS, clip, roleOf, textOf, nameOf, shownName, otherNames, disabledOf });
})()
