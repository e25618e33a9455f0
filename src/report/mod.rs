//! Output people can look at: SVG and PNG charts ([`charts`]), the
//! self-contained `report.html` page ([`html`]; a plain run's short one,
//! [`run_page`]) and spreadsheet workbooks
//! with native charts ([`xlsx`]).

pub mod charts;
pub mod html;
pub mod run_page;
pub mod xlsx;
