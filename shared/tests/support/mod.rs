//! Shared by the engine-level test binaries.

pub mod table;
