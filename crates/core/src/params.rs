//! **The one table of action parameters**: the reference's flat fields after `kind`.
//! `ActionFields`, `ActionParam` and every wire struct that carries the parameters
//! (`Decision`'s, `ExecutableAction`'s, the selector cache's steps, labelled script
//! steps) are generated from it, so a parameter is added in one row. serde's `flatten`
//! would be simpler but defeats `deny_unknown_fields`, which every boundary keeps.

/// The table, handed to the callback `$cb` (a macro of this crate) after the caller's
/// tokens. `click_modifier` reads any modifier name, so that a modifier on another kind
/// is refused as that (`Action::from_fields`) before its value is judged. A row is `Variant name: Type [resolved]`: `ids` are element parameters (a
/// cache or a script describes those its own way), `values` the rest. `[resolved]` is
/// what `ExecutableAction::materialize` resolves the parameter to; it is written right
/// after the parameter on that struct's wire.
#[doc(hidden)]
#[macro_export]
macro_rules! action_params {
    ($cb:ident { $($ctx:tt)* }) => {
        $crate::$cb! {
            { $($ctx)* }
            ids {
                TargetId target_id: $crate::ElementId [target_guard: $crate::Guard],
                SecondaryTargetId secondary_target_id: $crate::ElementId
                    [secondary_target_guard: $crate::Guard],
            }
            values {
                InputKey input_key: ::std::string::String [value: $crate::Scalar],
                Key key: $crate::Key [],
                Hotkey hotkey: $crate::Chord [],
                ScrollDirection scroll_direction: $crate::ScrollDirection [],
                DragDx drag_dx: f64 [],
                DragDy drag_dy: f64 [],
                ClickModifier click_modifier: $crate::Modifier [],
            }
        }
    };
}

/// A wire struct carrying `kind` and the table's parameters, each optional and left out
/// when absent, around the caller's own fields:
///
/// - `{ resolved }`: `kind` required, every parameter followed by what materialize
///   resolved it to (`ExecutableAction`'s wire); `with_kind` makes an empty one.
/// - `{ head { … } ids tail { … } }`: `kind` optional, the head's fields, every
///   parameter, the tail's fields (`Decision`'s wire).
/// - `{ head { … } values tail { … } }`: as `ids`, without the element parameters, which
///   the caller describes in its head (selectors, labels).
///
/// Each gets `action_fields` (the parameters as an `ActionFields`; the `values` form takes
/// the element ids) and `set_action_fields` (kind and parameters from an `ActionFields`).
#[macro_export]
macro_rules! action_wire {
    ($(#[$m:meta])* $vis:vis struct $name:ident { resolved }) => {
        $crate::action_params! { __action_wire { [$(#[$m])*] [$vis] $name resolved } }
    };
    (
        $(#[$m:meta])* $vis:vis struct $name:ident {
            head { $($head:tt)* } $which:ident tail { $($tail:tt)* }
        }
    ) => {
        $crate::action_params! {
            __action_wire { [$(#[$m])*] [$vis] $name [$($head)*] $which [$($tail)*] }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __action_wire {
    (
        { [$($m:tt)*] [$vis:vis] $name:ident resolved }
        ids { $($iv:ident $i:ident : $it:ty [$($ic:ident : $ict:ty)?],)* }
        values { $($vv:ident $v:ident : $vt:ty [$($vc:ident : $vct:ty)?],)* }
    ) => {
        $($m)*
        $vis struct $name {
            $vis kind: $crate::action::ActionKind,
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                $vis $i: Option<$it>,
                $(
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    $vis $ic: Option<$ict>,
                )?
            )*
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                $vis $v: Option<$vt>,
                $(
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    $vis $vc: Option<$vct>,
                )?
            )*
        }

        impl $name {
            $vis fn with_kind(kind: $crate::action::ActionKind) -> Self {
                $name { kind, $($i: None, $($ic: None,)?)* $($v: None, $($vc: None,)?)* }
            }

            $vis fn action_fields(&self) -> $crate::action::ActionFields {
                $crate::action::ActionFields {
                    kind: self.kind,
                    $($i: self.$i.clone(),)*
                    $($v: self.$v.clone(),)*
                }
            }

            $vis fn set_action_fields(&mut self, f: $crate::action::ActionFields) {
                self.kind = f.kind;
                $(self.$i = f.$i;)*
                $(self.$v = f.$v;)*
            }
        }
    };
    (
        { [$($m:tt)*] [$vis:vis] $name:ident [$($head:tt)*] ids [$($tail:tt)*] }
        ids { $($iv:ident $i:ident : $it:ty [$($ic:tt)*],)* }
        values { $($vv:ident $v:ident : $vt:ty [$($vc:tt)*],)* }
    ) => {
        $($m)*
        $vis struct $name {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            $vis kind: Option<$crate::action::ActionKind>,
            $($head)*
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                $vis $i: Option<$it>,
            )*
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                $vis $v: Option<$vt>,
            )*
            $($tail)*
        }

        impl $name {
            $vis fn action_fields(
                &self,
                kind: $crate::action::ActionKind,
            ) -> $crate::action::ActionFields {
                $crate::action::ActionFields {
                    kind,
                    $($i: self.$i.clone(),)*
                    $($v: self.$v.clone(),)*
                }
            }

            $vis fn set_action_fields(&mut self, f: $crate::action::ActionFields) {
                self.kind = Some(f.kind);
                $(self.$i = f.$i;)*
                $(self.$v = f.$v;)*
            }
        }
    };
    (
        { [$($m:tt)*] [$vis:vis] $name:ident [$($head:tt)*] values [$($tail:tt)*] }
        ids { $($iv:ident $i:ident : $it:ty [$($ic:tt)*],)* }
        values { $($vv:ident $v:ident : $vt:ty [$($vc:tt)*],)* }
    ) => {
        $($m)*
        $vis struct $name {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            $vis kind: Option<$crate::action::ActionKind>,
            $($head)*
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                $vis $v: Option<$vt>,
            )*
            $($tail)*
        }

        impl $name {
            /// The parameters, with the element ids the caller resolved its own way.
            $vis fn action_fields(
                &self,
                kind: $crate::action::ActionKind,
                $($i: Option<$it>,)*
            ) -> $crate::action::ActionFields {
                $crate::action::ActionFields {
                    kind,
                    $($i,)*
                    $($v: self.$v.clone(),)*
                }
            }

            /// Kind and value parameters; the element ids are the caller's to describe.
            $vis fn set_action_fields(&mut self, f: $crate::action::ActionFields) {
                self.kind = Some(f.kind);
                $(self.$v = f.$v;)*
            }
        }
    };
}

/// `ActionParam` and `ActionFields` (in `action.rs`).
#[doc(hidden)]
#[macro_export]
macro_rules! __action_fields {
    (
        {}
        ids { $($iv:ident $i:ident : $it:ty [$($ic:tt)*],)* }
        values { $($vv:ident $v:ident : $vt:ty [$($vc:tt)*],)* }
    ) => {
        /// One parameter of the table, named as on the wire.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ActionParam {
            $($iv,)*
            $($vv,)*
        }

        impl ActionParam {
            /// Every parameter, in wire order.
            pub const ALL: &'static [ActionParam] = &[$(ActionParam::$iv,)* $(ActionParam::$vv,)*];

            pub fn name(self) -> &'static str {
                match self {
                    $(ActionParam::$iv => stringify!($i),)*
                    $(ActionParam::$vv => stringify!($v),)*
                }
            }
        }

        /// The reference's flat action fields: `kind` and every parameter of the table.
        #[derive(Clone, Debug, PartialEq)]
        pub struct ActionFields {
            pub kind: ActionKind,
            $(pub $i: Option<$it>,)*
            $(pub $v: Option<$vt>,)*
        }

        impl ActionFields {
            pub fn new(kind: ActionKind) -> Self {
                ActionFields { kind, $($i: None,)* $($v: None,)* }
            }

            /// Sets `param` from its wire text (an id, a key name, a chord, `UP`…), read
            /// as the wire reads a JSON string; the error names the parameter.
            pub fn set_text(&mut self, param: ActionParam, raw: &str) -> Result<(), String> {
                fn parse<T: serde::de::DeserializeOwned>(
                    name: &str,
                    raw: &str,
                ) -> Result<T, String> {
                    use serde::de::IntoDeserializer;
                    let de: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
                        raw.into_deserializer();
                    T::deserialize(de).map_err(|e| format!("{name}: {e}"))
                }
                match param {
                    $(ActionParam::$iv => self.$i = Some(parse(stringify!($i), raw)?),)*
                    $(ActionParam::$vv => self.$v = Some(parse(stringify!($v), raw)?),)*
                }
                Ok(())
            }
        }
    };
}
