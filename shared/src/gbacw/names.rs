//! Enums whose variants are words in the data files. One macro gives each
//! the word table both ways, so the files and the code cannot drift apart.

/// A closed set of names that data files spell out.
pub trait Named: Copy + Ord + std::fmt::Debug + 'static {
    /// Every variant, in declaration order.
    fn all() -> &'static [Self];
    /// The word the data files use.
    fn name(self) -> &'static str;
    fn from_name(text: &str) -> Option<Self> {
        Self::all().iter().copied().find(|v| v.name() == text)
    }
    /// `"a, b, c"`, for error messages.
    fn name_list() -> String {
        Self::all()
            .iter()
            .map(|v| v.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Declare an enum of unit-like variants, each with its data-file word.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $crate::gbacw::names::Named for $name {
            fn all() -> &'static [Self] {
                &[$($name::$variant),+]
            }
            fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::gbacw::names::Named::name(*self))
            }
        }
    };
}

pub(crate) use named_enum;
