//! Output people can look at: SVG and PNG charts ([`charts`]) and
//! spreadsheet workbooks with native charts ([`xlsx`]).

pub mod charts;
pub mod xlsx;
