//! The integration tests, one binary (as ripgrep keeps them): each file of this folder is a
//! module, built and linked once instead of once per file (measured on two cores: all the
//! test code rebuilt in 6 s, against 18 s as 26 binaries). Each runs the real `clings`
//! binary on real C programs; `common` holds what they share.

mod ai;
mod architecture;
mod battle;
mod build_cache;
mod chapters;
mod checker;
mod ci;
mod ci_docs;
mod class_report;
mod commands;
mod common;
mod course;
mod dev;
mod diagnosis;
mod files;
mod gomocup;
mod hidden_feedback;
mod hostile;
mod init;
mod install;
mod interactive;
mod lesson;
mod looping;
mod mutants;
mod names;
mod promises;
mod renju;
mod reports;
mod reproducible;
mod robustness;
mod sealed_compile;
mod sealed_grading;
mod search;
mod shared_kernel;
mod tournament_html;
mod verdicts;
mod watch;
