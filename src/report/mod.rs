//! Output people can look at, made from the results of the studies
//! ([`crate::studies`]): SVG and PNG charts ([`charts`]), the
//! self-contained `report.html` pages ([`html`]; a plain run's short one,
//! [`run_page`]; a tournament's or sweep's, [`page`]; a tune's,
//! [`tune_page`]; made again from a study's files, [`study`]) and
//! spreadsheet workbooks with native charts ([`xlsx`],
//! [`workbook`]).

pub mod charts;
pub mod exhibit;
pub mod html;
pub mod page;
pub mod run_page;
pub mod study;
pub mod tune_page;
pub mod workbook;
pub mod xlsx;
