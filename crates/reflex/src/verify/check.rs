//! A criterion as read: the typed `Check` it is judged by, the subject it names, the
//! state it asks for.

use super::super::group;
use super::super::ordinal::Nth;
use super::super::spread::Spread;
use super::super::text::Query;
use super::happened;
use arc_core::Role;

#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// Some visible text (outside editable fields) contains the phrase.
    PageShows(String),
    PageLacks(String),
    /// The subject element's value or text contains the phrase.
    ElementShows(Subject, String),
    ElementState(Subject, State, bool),
    /// The run clicked the subject: an event, not a state, so only the run's own records
    /// (each click hit-tested on its target before it was pressed) can show it.
    Clicked(Subject),
    /// A stated click inside the item showing a word (`{"check": "clicked", "within":
    /// {"text": "Deva"}}`): the run's click on the subject, whose item (`item`) on the
    /// page shows the word.
    ClickedIn(Subject, String),
    /// A stated click inside every item (or a count of items) showing a word: the run
    /// pressed that control in exactly so many of those items, and in no other (`spread`).
    ClickedEach(Subject, Spread),
    /// "All the boxes in the list are checked": every member of a group (`group`) in the
    /// state; a group of close controls holds "closed" once none is left.
    Group(group::Group, group::Kind, bool),
    /// "\"Jinny>Lynett\" is selected": a menu path, chosen when the run clicked its leaf
    /// after opening each parent in order (hover or click). Menu items usually vanish
    /// once chosen, so only the run's records — each hover and click hit-tested on its
    /// target — can show it; a click on a same-named item elsewhere does not count.
    MenuPath(Vec<String>),
    /// "The form was submitted": the run committed (clicked a submit) after its last
    /// edit — again an event only the run's records show.
    Submitted,
    /// "The destination starts with \"Ab\" but ends with \"yz\"": the subject's
    /// value begins with the prefix and (when given) ends with the suffix, as written.
    Affix(Subject, String, Option<String>),
    /// "The text in the 2nd paragraph is highlighted": the run selected the passage's text
    /// (`highlight`; the object's words as said, and its quote).
    Highlighted(String, Option<String>),
    /// "The Shade box holds the value of \"Color\"" (or a stated `shown_for`): the subject
    /// holds exactly the text the page shows as that caption's value
    /// (`clipboard::value_shown_for`).
    ValueOf(Subject, String),
    /// A stated `values_by_label`: each field whose label captions a value on the page
    /// holds exactly that text (`clipboard::each_holds`).
    ValuesByLabel,
    /// The run downloaded a file the words (normalized; empty: any) say, by its saved
    /// name or the control whose press downloaded it (`downloaded`).
    Downloaded(String),
    /// "The 5th search result was clicked": the run clicked the Nth member of a list
    /// shown a page at a time, on its page (`paged`).
    ClickedNth(usize),
    /// The subject is on the page (by its text, or as an element of the named role).
    Present(Subject),
    /// "Buy milk appears in the list": the text, said by something that is not an
    /// editable field, inside an element the scope names (by role, or by name).
    ShowsIn(String, Subject),
    /// An outcome said in a few words ("Message sent", "The preferences are saved", "Ada
    /// is signed in"): a message that appeared while the run acted says every content
    /// word, in any form (stems), and nothing negates it. `stale` holds the elements that
    /// already said so before the run acted (filled in when the criteria are read).
    Confirmed(Vec<String>, std::collections::HashSet<arc_core::ElementId>),
    /// What an outcome statement's verb says happened to its subject ("Alan Turing
    /// added", "Bio saved"), on evidence of that kind (`happened`).
    Happened(Box<happened::Happened>),
    /// A sentence read two ways: it holds on the evidence of either.
    Either(Box<Check>, Box<Check>),
    /// Nothing inside the scope says the text (a stated `text_absent` with `within`).
    LacksIn(String, Subject),
    /// A stated `field_value`: the field's whole value, or part of it (folded).
    FieldValue(Subject, FieldMatch),
    /// A stated `count` / `none_remain`: visible elements (not fields) named so, or
    /// showing the name, each counted once (not again through its children).
    Count(Subject, Bounds),
    UrlContains(String),
    UrlIs(String),
    TitleContains(String),
    TitleIs(String),
    Unreadable,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FieldMatch {
    Equals(String),
    Contains(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub at_least: u32,
    pub at_most: Option<u32>,
}

impl Check {
    /// Whether the check holds on a file the run downloaded (its evidence names it).
    pub fn about_download(&self) -> bool {
        match self {
            Check::Downloaded(_) => true,
            Check::Happened(h) => h.event == super::happened::Event::Downloaded,
            Check::Either(a, b) => a.about_download() || b.about_download(),
            _ => false,
        }
    }

    /// Whether the sentence itself went unread: unreadable, or unreadable with only an
    /// alternative reading beside it (a key and a value, "K: V"). Once that alternative
    /// fails, the sentence is still one the reader could not turn into a check (the model
    /// judge's to weigh, when there is one).
    pub fn unread(&self) -> bool {
        match self {
            Check::Unreadable => true,
            Check::Either(a, _) => a.unread(),
            _ => false,
        }
    }

    /// Whether the page itself can show the check coming true (not the run's records,
    /// not an unreadable sentence).
    pub fn reads_the_page(&self) -> bool {
        if let Check::Either(a, b) = self {
            return a.reads_the_page() || b.reads_the_page();
        }
        !matches!(
            self,
            Check::Clicked(_)
                | Check::ClickedIn(..)
                | Check::ClickedEach(..)
                | Check::ClickedNth(_)
                | Check::MenuPath(_)
                | Check::Submitted
                | Check::Highlighted(..)
                | Check::Unreadable
        )
    }

    /// Whether the check may be judged on the page as it was at the run's final click
    /// (a page may clear itself in answer): one that reads the page, or a highlight, whose
    /// passage is grounded there and whose selection is in the run's records.
    pub fn holds_at_click(&self) -> bool {
        if let Check::Either(a, b) = self {
            return a.holds_at_click() || b.holds_at_click();
        }
        self.reads_the_page() || matches!(self, Check::Highlighted(..))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Checked,
    /// "X is marked done": an item's own checkable control (named by it or by the label
    /// beside it) is checked. Unlike [`State::Checked`], never inferred from a click on
    /// something named X: a click is not an outcome.
    Done,
    Expanded,
    Enabled,
    /// "SMS alerts are enabled" in a sentence: a switch or checkbox is on; any other
    /// control takes input. (A stated `enabled` is [`State::Enabled`], exactly.)
    Active,
    Focused,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Subject {
    pub query: Query,
    pub quoted: bool,
    pub roles: Vec<Role>,
    /// "the 3rd textbox": picked by position among the roles' elements.
    pub nth: Option<Nth>,
}

impl Subject {
    /// How close a name must come: nearly exact for a quote.
    pub fn threshold(&self) -> f64 {
        if self.quoted {
            super::super::ground::QUOTED_THRESHOLD
        } else {
            super::super::ground::THRESHOLD
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Criterion {
    pub text: String,
    pub check: Check,
    /// Which of the planner's criteria this is (or is a clause of).
    pub of: usize,
}
