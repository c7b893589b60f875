"""A text input that owns its text between reruns (a Streamlit components-v2 widget with inline JS).

streamlit-keyup, which the Content page used before, loses keystrokes: a Streamlit rerun that changes what sits
above the input (a message appearing after Save, or expiring) mounts the component afresh, and the new input
takes the last value Python had echoed back (what was typed after the last debounced send is gone, and the
focus with it); its typing guard is also cleared by any echo equal to the current text, so an older echo still
on its way can overwrite a Backspace. Here the browser keeps the text of every field in a page-wide map keyed
by the widget's key: a remount restores the text, the caret and the focus and sends what was unsent; Python's
echoes never replace what was typed. Python replaces the text only on purpose, by raising `seed` (a new value
from disk); the browser then adopts it unless something typed is still unsent, and every value it reports
carries the seed it was typed on, so Python can tell a report typed on an older value from a new one.
Pending text is sent after `debounce` ms without a keystroke, and at once on Enter (one-line), on leaving the
field (so a click on Save saves what was typed) and when the page is hidden.
"""
from __future__ import annotations

from typing import Any

import streamlit as st

STATE_PREFIX = "_kcd_text_"   # session-state key of the component; the caller's key holds the plain text

_HTML = """
<div class="kcdtext" id="root">
  <label id="label" class="kcdtext__label"></label>
  <div class="kcdtext__wrap" id="wrap"></div>
</div>
"""

_CSS = """
*, *::before, *::after { box-sizing: border-box; margin: 0; padding: 0; }
.kcdtext { display: flex; flex-direction: column; width: 100%; font-family: var(--st-font, sans-serif);
  color: var(--st-text-color, inherit); }
.kcdtext__label { font-size: 14px; line-height: 1.6; margin-bottom: 4px; min-height: 1.4em; }
.kcdtext__wrap { display: flex; border: 1px solid rgba(127, 127, 127, 0.3); border-radius: 6px;
  background-color: var(--st-secondary-background-color, #f0f2f6); }
.kcdtext__wrap:focus-within { border-color: var(--st-primary-color, #ff4b4b); }
.kcdtext__input { flex: 1; min-width: 0; background: transparent; border: none; outline: none;
  padding: 10px 14px; font-family: var(--st-font, sans-serif); font-size: 15px; color: inherit;
  caret-color: var(--st-text-color, inherit); resize: vertical; }
textarea.kcdtext__input { font-family: var(--st-code-font, monospace); font-size: 14px; line-height: 1.5; }
"""

_JS = r"""
// one map for the whole page: it outlives every mount of every field
const memory = (window.__kcdTextFields ??= new Map());

export default function({ parentElement, data, key, setStateValue }) {
  const root = parentElement.querySelector("#root");
  const wrap = parentElement.querySelector("#wrap");
  parentElement.querySelector("#label").textContent = data.label ?? "";
  const tag = data.rows > 0 ? "textarea" : "input";
  let input = wrap.querySelector(".kcdtext__input");
  if (!input || input.tagName.toLowerCase() !== tag) {
    if (input) input.remove();
    input = document.createElement(tag);
    input.className = "kcdtext__input";
    input.spellcheck = false;
    if (tag === "textarea") input.rows = data.rows;
    wrap.appendChild(input);
  }
  const id = String(key);
  const seed = String(data.seed ?? "0");
  let m = memory.get(id);
  if (!m) {
    m = { text: data.value ?? "", sent: data.value ?? "", seed, focused: false, start: null, end: null,
          timer: null };
    memory.set(id, m);
  } else if (m.seed !== seed) {
    // Python replaces the value (the file changed on disk); text typed and not yet sent is kept, and becomes
    // an edit on the new version
    if (m.text === m.sent) { m.text = data.value ?? ""; m.sent = m.text; }
    m.seed = seed;
    if (m.text !== (data.value ?? "")) m.sent = null;
  }
  m.push = () => {
    clearTimeout(m.timer);
    m.timer = null;
    if (m.text !== m.sent) {
      m.sent = m.text;
      m.setState("value", { text: m.text, seed: m.seed });
    }
  };
  m.setState = setStateValue;
  if (input.value !== m.text) input.value = m.text;
  const home = input.getRootNode();
  if (m.focused && home.activeElement !== input) {
    // a fresh mount of a field that had the focus: give it back, caret where it was
    input.focus({ preventScroll: true });
    if (m.start !== null) { try { input.setSelectionRange(m.start, m.end); } catch (e) {} }
  }
  if (m.text !== m.sent && m.timer === null) m.timer = setTimeout(() => m.push(), data.debounce ?? 0);
  input.disabled = !!data.disabled;
  input.placeholder = data.placeholder ?? "";

  if (!input._kcdAttached) {
    const caret = () => { m.start = input.selectionStart; m.end = input.selectionEnd; };
    input.addEventListener("input", () => {
      m.text = input.value;
      caret();
      clearTimeout(m.timer);
      m.timer = setTimeout(() => m.push(), data.debounce ?? 0);
    });
    input.addEventListener("keyup", caret);
    input.addEventListener("click", caret);
    input.addEventListener("focus", () => { m.focused = true; });
    input.addEventListener("blur", () => {
      // a blur because the input left the page (a remount) keeps the focus for the new one
      if (input.isConnected) m.focused = false;
      m.push();
    });
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && tag === "input") m.push();
    });
    input._kcdAttached = true;
  }
  if (!window.__kcdTextHide) {
    window.__kcdTextHide = true;
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") for (const f of memory.values()) if (f.push) f.push();
    });
  }
}
"""

_component = st.components.v2.component("kcd_text", html=_HTML, css=_CSS, js=_JS, isolate_styles=True)


def reported(state: Any, seed: int) -> str | None:
    """The text the browser reported for this seed (None: nothing reported, or typed on an older value).

    The browser reports `{"text", "seed"}`; a plain string (as tests put it) counts as typed on this seed."""
    value = state.get("value") if isinstance(state, dict) else None
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("text"), str) and str(value.get("seed")) == str(seed):
        return value["text"]
    return None


def text_field(label: str, value: str, key: str, *, seed: int = 0, debounce: int = 150, rows: int = 0,
               placeholder: str = "", disabled: bool = False) -> str:
    """A text input (a text area when `rows` > 0) that never loses a keystroke; returns what the browser holds.

    `value` is shown when the field first appears and whenever `seed` changes; after that the browser owns the
    text. `st.session_state[key]` holds the same plain text."""
    state_key = STATE_PREFIX + key
    live = reported(st.session_state.get(state_key), seed)
    shown = value if live is None else live

    def _mirror() -> None:
        text = reported(st.session_state.get(state_key), seed)
        if text is not None:
            st.session_state[key] = text

    result = _component(data={"label": label, "value": value, "seed": seed, "debounce": debounce, "rows": rows,
                              "placeholder": placeholder, "disabled": disabled},
                        default={"value": {"text": shown, "seed": seed}}, key=state_key, on_value_change=_mirror)
    got = reported({"value": getattr(result, "value", None)}, seed)
    text = shown if got is None else got
    st.session_state[key] = text
    return text
