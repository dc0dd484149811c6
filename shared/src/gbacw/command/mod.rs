//! Command (GBACW 17.0–17.2, 10.3–10.4, 11.23, 13.53) as pure queries:
//! tracing radii and supply paths ([`trace`]) and who is in command
//! ([`status`]).

pub mod attach;
pub mod status;
pub mod trace;

pub use attach::{DivisionLinks, LinkOrder, apply_link_order, commands, is_detached};
pub use status::{
    allocate_command_points, brigade_moves_one_hex, effective_radius, unit_in_command,
};
pub use trace::{PathBlocks, supply_path, within_radius};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_attach;
