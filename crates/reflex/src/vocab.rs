//! The general UI vocabulary the reflex understands: verbs, the words that name roles,
//! and the words of progression and submission buttons. Plain English UI words only; no
//! page, task or benchmark appears here.

use arc_core::Role;

/// What a goal clause asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    /// Type or set a value (its literal must come from the inputs).
    Fill,
    /// Choose a value or an option.
    Select,
    Check,
    Uncheck,
    Click,
    /// Open a tab, a link, a page or a menu.
    Open,
    /// Expand (true) or collapse (false).
    Expand(bool),
    /// Commit the work: submit, sign up, confirm, save, …; the verb often names the button.
    Submit,
    Scroll,
    /// Put the keyboard focus on an element (a field included).
    Focus,
    /// Close a dialog, popup or panel: its close control (a quoted one, or the one named
    /// "close"/"×" inside it).
    Close,
    /// Only states what must hold ("make sure …"): nothing to do.
    Verify,
    /// Copy a field's text to the clipboard (`clipboard`: select all, MOD+C).
    Copy,
    /// Paste the clipboard into a field (`clipboard`: focus, select all, MOD+V).
    Paste,
    /// Select a passage's text with the mouse (`highlight`).
    Highlight,
    /// Answer or pass on a message ("reply to her", "forward that email"): press the
    /// control the verb names; what is written goes in as an input, and the send is the
    /// form's commit.
    Respond,
}

/// Verb phrases, matched longest first at the start of a clause.
pub const VERBS: &[(&[&str], Verb)] = &[
    (&["check", "that"], Verb::Verify),
    (&["check", "whether"], Verb::Verify),
    (&["check", "if"], Verb::Verify),
    (&["confirm", "that"], Verb::Verify),
    (&["confirm", "whether"], Verb::Verify),
    (&["make", "sure"], Verb::Verify),
    (&["ensure"], Verb::Verify),
    (&["verify"], Verb::Verify),
    (&["wait"], Verb::Verify),
    (&["check", "out"], Verb::Submit),
    (&["fill", "in"], Verb::Fill),
    (&["fill", "out"], Verb::Fill),
    (&["fill"], Verb::Fill),
    (&["type", "in"], Verb::Fill),
    (&["type"], Verb::Fill),
    (&["enter"], Verb::Fill),
    (&["input"], Verb::Fill),
    (&["write"], Verb::Fill),
    (&["provide"], Verb::Fill),
    (&["put"], Verb::Fill),
    (&["set"], Verb::Fill),
    (&["specify"], Verb::Fill),
    (&["change"], Verb::Fill),
    (&["select"], Verb::Select),
    (&["choose"], Verb::Select),
    (&["pick"], Verb::Select),
    (&["check"], Verb::Check),
    (&["tick"], Verb::Check),
    (&["tick", "off"], Verb::Check),
    (&["check", "off"], Verb::Check),
    (&["accept"], Verb::Check),
    (&["agree", "to"], Verb::Check),
    (&["agree"], Verb::Check),
    (&["enable"], Verb::Check),
    // A status, a permission or a role one grants is a box one checks.
    (&["grant"], Verb::Check),
    (&["turn", "on"], Verb::Check),
    (&["opt", "in"], Verb::Check),
    (&["uncheck"], Verb::Uncheck),
    (&["untick"], Verb::Uncheck),
    (&["disable"], Verb::Uncheck),
    (&["revoke"], Verb::Uncheck),
    (&["deselect"], Verb::Uncheck),
    (&["turn", "off"], Verb::Uncheck),
    (&["opt", "out"], Verb::Uncheck),
    (&["click", "on"], Verb::Click),
    (&["click"], Verb::Click),
    (&["tap", "on"], Verb::Click),
    (&["tap"], Verb::Click),
    (&["press"], Verb::Click),
    (&["hit"], Verb::Click),
    (&["push"], Verb::Click),
    (&["follow"], Verb::Click),
    (&["activate"], Verb::Click),
    (&["go", "to"], Verb::Open),
    (&["navigate", "to"], Verb::Open),
    (&["browse", "to"], Verb::Open),
    (&["switch", "to"], Verb::Open),
    (&["open"], Verb::Open),
    (&["visit"], Verb::Open),
    (&["view"], Verb::Open),
    (&["show"], Verb::Open),
    (&["expand"], Verb::Expand(true)),
    (&["collapse"], Verb::Expand(false)),
    (&["scroll"], Verb::Scroll),
    (&["focus", "into"], Verb::Focus),
    (&["focus", "on"], Verb::Focus),
    (&["focus", "in"], Verb::Focus),
    (&["focus"], Verb::Focus),
    (&["copy"], Verb::Copy),
    (&["paste"], Verb::Paste),
    (&["highlight"], Verb::Highlight),
    (&["reply"], Verb::Respond),
    (&["respond"], Verb::Respond),
    (&["forward"], Verb::Respond),
    (&["close"], Verb::Close),
    (&["dismiss"], Verb::Close),
    (&["submit"], Verb::Submit),
    (&["send"], Verb::Submit),
    (&["save"], Verb::Submit),
    (&["sign", "up"], Verb::Submit),
    (&["signup"], Verb::Submit),
    (&["register"], Verb::Submit),
    (&["sign", "in"], Verb::Submit),
    (&["signin"], Verb::Submit),
    (&["log", "in"], Verb::Submit),
    (&["login"], Verb::Submit),
    (&["log", "on"], Verb::Submit),
    (&["confirm"], Verb::Submit),
    (&["place"], Verb::Submit),
    (&["checkout"], Verb::Submit),
    (&["continue"], Verb::Submit),
    (&["proceed"], Verb::Submit),
    (&["finish"], Verb::Submit),
    (&["complete"], Verb::Submit),
    (&["apply"], Verb::Submit),
    (&["search"], Verb::Submit),
    (&["book"], Verb::Submit),
    (&["buy"], Verb::Submit),
    (&["pay"], Verb::Submit),
    (&["purchase"], Verb::Submit),
    (&["order"], Verb::Submit),
    (&["create"], Verb::Submit),
    (&["add"], Verb::Submit),
    (&["subscribe"], Verb::Submit),
    (&["join"], Verb::Submit),
    (&["reserve"], Verb::Submit),
    (&["post"], Verb::Submit),
    (&["publish"], Verb::Submit),
    (&["delete"], Verb::Submit),
    (&["remove"], Verb::Submit),
];

/// A manner adverb before a clause's verb ("permanently delete", "quickly check"): an
/// "-ly" word of four letters or more that is no verb of `VERBS` ("apply", "reply").
pub fn is_adverb(w: &str) -> bool {
    w.len() >= 4 && w.ends_with("ly") && !VERBS.iter().any(|(p, _)| p[0] == w)
}

/// Words skipped before a clause's verb ("then click", "please submit").
pub fn is_filler(w: &str) -> bool {
    matches!(
        w,
        "please"
            | "then"
            | "and"
            | "now"
            | "first"
            | "firstly"
            | "finally"
            | "lastly"
            | "also"
            | "just"
            | "to"
            | "afterwards"
            | "next"
            | "so"
            // "…, then find and click the 5th result": the search is the click's own.
            | "find"
            | "locate"
    )
}

/// The verb phrase starting at `words[at..]`, longest first: (verb, word count).
pub fn verb_at(words: &[&str], at: usize) -> Option<(Verb, usize)> {
    VERBS
        .iter()
        .filter(|(phrase, _)| {
            words.len() >= at + phrase.len()
                && phrase
                    .iter()
                    .zip(&words[at..])
                    .enumerate()
                    .all(|(k, (p, w))| p == w || (k == 0 && gerund_of(w, p)))
        })
        .max_by_key(|(phrase, _)| phrase.len())
        .map(|(phrase, verb)| (*verb, phrase.len()))
}

/// "agreeing" for "agree", "selecting" for "select": a clause led by the verb's -ing form
/// ("Register Lise, agreeing to the terms") asks for the same step.
fn gerund_of(word: &str, verb: &str) -> bool {
    word.len() > verb.len() && word.ends_with("ing") && super::stem::same_stem(word, verb)
}

/// Role words, two-word ones first: (words, roles they name).
const ROLE_WORDS: &[(&[&str], &[Role])] = &[
    (&["text", "field"], TEXT_ROLES),
    (&["text", "fields"], TEXT_ROLES),
    (&["text", "input"], TEXT_ROLES),
    (&["text", "inputs"], TEXT_ROLES),
    (&["text", "area"], &[Role::TextField]),
    (&["input", "field"], TEXT_ROLES),
    (&["input", "box"], TEXT_ROLES),
    (&["dialog", "box"], &[Role::Dialog]),
    (&["textboxes"], TEXT_ROLES),
    (&["fields"], TEXT_ROLES),
    (&["spinner"], &[Role::SpinButton]),
    (&["list"], &[Role::ListBox, Role::ComboBox, Role::List]),
    (&["radio", "button"], &[Role::Radio]),
    (&["check", "box"], &[Role::CheckBox, Role::Switch]),
    (
        &["text", "box"],
        &[
            Role::TextField,
            Role::PasswordField,
            Role::SpinButton,
            Role::ComboBox,
        ],
    ),
    (&["drop", "down"], &[Role::ComboBox, Role::ListBox]),
    (&["menu", "item"], &[Role::MenuItem]),
    (&["button"], &[Role::Button]),
    (&["buttons"], &[Role::Button]),
    (&["link"], &[Role::Link]),
    (&["links"], &[Role::Link]),
    (&["tab"], &[Role::Tab]),
    // A picture standing for a control: any role (an icon is often a bare span).
    (&["icon"], &[]),
    (&["icons"], &[]),
    // A generic word for a control of any kind ("a \"checkbox\" widget").
    (&["widget"], &[]),
    (&["widgets"], &[]),
    (&["checkbox"], &[Role::CheckBox, Role::Switch]),
    (&["toggle"], &[Role::Switch, Role::CheckBox]),
    (&["switch"], &[Role::Switch, Role::CheckBox]),
    (&["radio"], &[Role::Radio]),
    (&["option"], &[Role::Option, Role::Radio, Role::MenuItem]),
    (&["dropdown"], &[Role::ComboBox, Role::ListBox]),
    (&["combobox"], &[Role::ComboBox]),
    (&["select"], &[Role::ComboBox, Role::ListBox]),
    (&["listbox"], &[Role::ListBox]),
    (
        &["field"],
        &[
            Role::TextField,
            Role::PasswordField,
            Role::SpinButton,
            Role::ComboBox,
        ],
    ),
    (
        &["input"],
        &[
            Role::TextField,
            Role::PasswordField,
            Role::SpinButton,
            Role::ComboBox,
        ],
    ),
    (
        &["textbox"],
        &[Role::TextField, Role::PasswordField, Role::SpinButton],
    ),
    (&["textarea"], &[Role::TextField]),
    (
        &["menu"],
        &[Role::Menu, Role::MenuBar, Role::MenuItem, Role::Button],
    ),
    (&["heading"], &[Role::Heading]),
    (&["paragraph"], &[Role::Paragraph]),
    (&["paragraphs"], &[Role::Paragraph]),
    (&["status"], &[Role::Status]),
    (&["alert"], &[Role::Alert]),
    (&["slider"], &[Role::Slider]),
    (&["dialog"], &[Role::Dialog]),
];

/// What "text field", "text input" and "textbox" name: anything a person types into.
pub const TEXT_ROLES: &[Role] = &[Role::TextField, Role::PasswordField, Role::SpinButton];

/// The role words at `words[at..]`: (roles, word count).
pub fn role_word_at(words: &[&str], at: usize) -> Option<(&'static [Role], usize)> {
    ROLE_WORDS
        .iter()
        .find(|(phrase, _)| {
            words.len() >= at + phrase.len() && phrase.iter().zip(&words[at..]).all(|(p, w)| p == w)
        })
        .map(|(phrase, roles)| (*roles, phrase.len()))
}

/// Splits words into (words without role words, roles named).
pub fn strip_role_words(words: &[&str]) -> (Vec<String>, Vec<Role>) {
    let mut rest = Vec::new();
    let mut roles: Vec<Role> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if let Some((named, n)) = role_word_at(words, i) {
            for r in named {
                if !roles.contains(r) {
                    roles.push(r.clone());
                }
            }
            i += n;
        } else {
            rest.push(words[i].to_owned());
            i += 1;
        }
    }
    (rest, roles)
}

/// Words that mean "the page as a whole" in a criterion's subject.
pub fn is_page_word(w: &str) -> bool {
    matches!(
        w,
        "page"
            | "screen"
            | "window"
            | "site"
            | "app"
            | "application"
            | "ui"
            | "browser"
            | "document"
            | "view"
            | "there"
            | "it"
            | "web"
            | "webpage"
            | "display"
    )
}

/// Words that only carry a statement: auxiliaries, "now", "got saved", "all".
pub fn is_auxiliary(w: &str) -> bool {
    matches!(
        w,
        "is" | "are"
            | "was"
            | "were"
            | "has"
            | "have"
            | "had"
            | "been"
            | "be"
            | "being"
            | "now"
            | "got"
            | "get"
            | "gets"
            | "all"
            | "s"
    )
}

/// Words of showing and of what shows: how a criterion points at its evidence ("a thank-you
/// message is shown"), never words the evidence itself repeats.
pub fn is_seeing(w: &str) -> bool {
    matches!(
        w,
        "show"
            | "shows"
            | "shown"
            | "showing"
            | "display"
            | "displays"
            | "displayed"
            | "displaying"
            | "appear"
            | "appears"
            | "appeared"
            | "appearing"
            | "visible"
            // Being there at all is being shown ("The Orion workspace exists").
            | "exist"
            | "exists"
            | "see"
            | "sees"
            | "seen"
            | "message"
            | "messages"
            | "text"
    )
}

/// Besides the words of showing ([`is_seeing`]) and the auxiliaries: saying and
/// confirming ("A message confirms that the user was added", "a notice stating …").
pub fn is_pointing(w: &str) -> bool {
    is_seeing(w)
        || is_auxiliary(w)
        || matches!(
            w,
            "says"
                | "saying"
                | "states"
                | "stating"
                | "confirms"
                | "confirming"
                | "confirmation"
                | "indicates"
                | "indicating"
        )
}

/// Words a page reports a fault with ("Incorrect password", "Email is required"): a
/// message saying one acknowledges nothing. Failure words ("failed", "error",
/// "rejected") are `affirm::denies`'s, asked beside this.
pub fn is_fault_word(w: &str) -> bool {
    matches!(
        w,
        "errors"
            | "invalid"
            | "incorrect"
            | "wrong"
            | "required"
            | "missing"
            | "expired"
            | "unavailable"
            | "mismatch"
            | "problem"
            | "sorry"
            | "oops"
            | "warning"
            | "retry"
    )
}

/// What a close control shows instead of a name: "x", "×", "✕".
pub fn is_close_glyph(quoted: &str) -> bool {
    matches!(quoted.trim(), "x" | "X" | "×" | "✕" | "✖" | "✗" | "╳")
}

/// Controls drawn as a picture are often named by it ("trash", "star") while a request
/// names what they do ("delete", "favorite"): the pictures that stand for a function word.
pub fn pictured_as(word: &str) -> &'static [&'static str] {
    match word {
        "delete" | "remove" | "discard" => &["trash", "bin", "garbage"],
        "favorite" | "favourite" | "important" => &["star", "heart"],
        "edit" => &["pencil"],
        "settings" => &["gear", "cog"],
        _ => &[],
    }
}

/// A year names the textbox that holds a date when no field bears the word "year"
/// ("Released Date"): a year alone is how such a field is often filled. Not a month or a
/// day, which alone are no date.
pub fn whole_of(part: &str) -> &'static [&'static str] {
    match part {
        "year" => &["date"],
        _ => &[],
    }
}

/// First words of buttons that advance a multi-stage flow.
pub fn is_progression_word(w: &str) -> bool {
    matches!(w, "next" | "continue" | "proceed" | "forward")
}

/// Words of buttons that submit a form.
pub fn is_submit_word(w: &str) -> bool {
    matches!(
        w,
        "submit"
            | "send"
            | "save"
            | "confirm"
            | "done"
            | "ok"
            | "apply"
            | "finish"
            | "register"
            | "signup"
            | "login"
            | "signin"
    )
}

/// First words of a button that leaves a form rather than sends it.
pub fn is_abandon_word(w: &str) -> bool {
    matches!(
        w,
        "cancel" | "reset" | "clear" | "back" | "close" | "discard" | "undo" | "previous"
    )
}

/// Named keys a goal may ask to press.
pub fn press_key(word: &str) -> Option<arc_core::Key> {
    use arc_core::Key;
    let key = match word {
        "enter" | "return" => Key::Enter,
        "escape" | "esc" => Key::Escape,
        "tab" => Key::Tab,
        "space" | "spacebar" => Key::Space,
        "backspace" => Key::Backspace,
        "delete" | "del" => Key::Delete,
        "home" => Key::Home,
        "end" => Key::End,
        "pageup" => Key::PageUp,
        "pagedown" => Key::PageDown,
        _ => return None,
    };
    Some(key)
}

/// Literal text that reads as a boolean, for checkbox inputs.
pub fn truthy(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "checked" | "1" | "y" => Some(true),
        "false" | "no" | "off" | "unchecked" | "0" | "n" => Some(false),
        _ => None,
    }
}

/// Whether the words name a field of several lines ("textarea", "text area": true) or
/// of one ("textbox", "text box", "text field", "input": false); `None` when they say
/// neither.
pub fn line_shape(words: &[&str]) -> Option<bool> {
    let joined = format!(" {} ", words.join(" "));
    let has = |w: &str| joined.contains(&format!(" {w} "));
    if has("textarea") || has("text area") {
        Some(true)
    } else if has("textbox") || has("text box") || has("text field") || has("input") {
        Some(false)
    } else {
        None
    }
}
