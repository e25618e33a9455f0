//! Output people can look at: SVG and PNG charts ([`charts`]), the
//! self-contained `report.html` page ([`html`]) and spreadsheet workbooks
//! with native charts ([`xlsx`]).

pub mod charts;
pub mod html;
pub mod xlsx;
