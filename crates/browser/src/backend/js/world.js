// arc-cua's helpers, installed in an isolated world of each frame: page scripts cannot
// see or patch them, and they see the same DOM. Kept small: every function here runs on
// the hot path of a step.
(() => {
  if (globalThis.__arc) return;
  let mutations = 0;
  const observer = new MutationObserver((records) => { mutations += records.length; });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });

  // This frame's viewport origin in the top frame's viewport (same-origin chain).
  function frameOffset() {
    let x = 0, y = 0, w = window;
    while (w !== w.top) {
      let owner;
      try { owner = w.frameElement; } catch (e) { break; }
      if (!owner) break;
      const r = owner.getBoundingClientRect();
      x += r.left + owner.clientLeft;
      y += r.top + owner.clientTop;
      w = w.parent;
    }
    return [x, y];
  }

  function rects(node) {
    if (node.nodeType === Node.TEXT_NODE) {
      const range = document.createRange();
      range.selectNodeContents(node);
      return Array.from(range.getClientRects());
    }
    return Array.from(node.getClientRects());
  }

  // The first box of the node that has area and lies (partly) in the viewport.
  function visibleBox(node) {
    for (const r of rects(node)) {
      if (r.width <= 0 || r.height <= 0) continue;
      const left = Math.max(r.left, 0), top = Math.max(r.top, 0);
      const right = Math.min(r.right, innerWidth), bottom = Math.min(r.bottom, innerHeight);
      if (right > left && bottom > top) return { left, top, width: right - left, height: bottom - top };
    }
    return null;
  }

  function describe(el) {
    if (!el) return 'nothing';
    const text = (el.innerText || el.value || '').trim().slice(0, 40);
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (text ? ' "' + text + '"' : '');
  }

  function hits(node, x, y) {
    const hit = document.elementFromPoint(x, y);
    if (!hit) return [false, 'nothing'];
    if (node.nodeType === Node.TEXT_NODE) return [hit.contains(node), describe(hit)];
    if (hit === node || node.contains(hit)) return [true, ''];
    // A control's own label forwards the click to it.
    if (hit.control === node || (hit.closest && hit.closest('label') && hit.closest('label').control === node)) return [true, ''];
    return [false, describe(hit)];
  }

  globalThis.__arc = {
    // [href, readyState, DOM mutations so far, focus, scrollX, scrollY, element count]
    probe() {
      const a = document.activeElement;
      return [location.href, document.readyState, mutations,
        a ? a.tagName + '#' + a.id : '', Math.round(scrollX), Math.round(scrollY),
        document.getElementsByTagName('*').length];
    },

    // Scrolls the node into view if needed and returns where to aim in the top viewport,
    // with a hit test at that point: {x, y, hit, covered}.
    locate(node) {
      if (!node.isConnected) return { gone: true };
      let box = visibleBox(node);
      if (!box) {
        const target = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
        target.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        box = visibleBox(node);
      }
      if (!box) return { offscreen: true };
      const lx = box.left + box.width / 2, ly = box.top + box.height / 2;
      const [ox, oy] = frameOffset();
      const [hit, covered] = hits(node, lx, ly);
      return { x: lx + ox, y: ly + oy, lx, ly, hit, covered };
    },

    // Re-checks, just before the press, that the point still lands on the node.
    hitAt(node, lx, ly) {
      if (!node.isConnected) return 'gone';
      const [hit, covered] = hits(node, lx, ly);
      return hit ? '' : covered;
    },

    // Focuses a text control and selects its content, so typing replaces it.
    focusSelect(el) {
      el.focus();
      if (typeof el.select === 'function') { el.select(); return true; }
      if (el.isContentEditable) {
        const range = document.createRange();
        range.selectNodeContents(el);
        const sel = getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        return true;
      }
      return document.activeElement === el;
    },

    // Sets a value through the element's own setter and fires input/change, as a
    // framework-controlled field expects.
    setValue(el, value) {
      if (el instanceof HTMLSelectElement) return this.selectOption(el, value);
      if (el.isContentEditable) {
        el.textContent = value;
      } else {
        const proto = Object.getPrototypeOf(el);
        const desc = Object.getOwnPropertyDescriptor(proto, 'value');
        if (desc && desc.set) desc.set.call(el, value); else el.value = value;
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
  };
})();
