//! A mutation fuzzer for cpsolve that runs on stable Rust.
//!
//! # Background
//! Fuzzing feeds a program a stream of machine-made inputs and watches for behaviour that
//! no input should ever cause, whatever its content: a panic, a hang, a blow-up of memory,
//! a death by a signal. A parser that answers "syntax error" is doing its job; a parser
//! that panics is not. *Mutational* fuzzing makes the inputs by damaging real ones (the
//! seeds): files that are nearly right reach much deeper into a parser and a compiler than
//! random bytes, which a lexer rejects at the first character.
//!
//! cargo-fuzz and libFuzzer steer their mutations by code coverage, which needs a nightly
//! compiler. This crate has no coverage; it steers by a cheap stand-in instead: the
//! *verdict* of each input (accepted, or the wording of the first error with its numbers
//! folded). An input whose verdict was never seen before took a path no earlier input
//! took, so it joins the pool that later inputs are mutated from. Everything is drawn from
//! one seeded generator, so a run is reproducible from its seed.
//!
//! # Parts
//! - Inputs: [`corpus`] loads the seed files ([`deep`] makes seeds nested to the
//!   parser's cap), [`dictionary`] holds the tokens and
//!   numbers that mutations insert, [`mutate`] damages an input with several stacked
//!   mutations, drawing from [`rng`].
//! - In-process targets: [`targets`] are the entry points under test (the `.puz`
//!   parser and compilers, the `.mine` reader, the FlatZinc loader); [`executor`] runs one
//!   input on a worker thread under `catch_unwind` while the calling thread watches the
//!   clock and [`memory`]; [`crash_guard`] saves the input when the process dies anyway
//!   (a stack overflow or a failed allocation aborts, it does not unwind); [`campaign`]
//!   is the loop that generates, runs and judges inputs.
//! - Whole-binary target: [`binary`] runs the built `cpsolve` on mutated files and
//!   checks its exit status, standard error, time and peak memory.
//! - Afterwards: [`findings`] writes what was found to disk, [`minimise`] shrinks a
//!   finding to the few lines that still trigger it.
//!
//! `notes/fuzzing.md` explains how to run it and how a finding becomes a regression test.

pub mod binary;
pub mod campaign;
pub mod corpus;
pub mod crash_guard;
pub mod deep;
pub mod dictionary;
pub mod executor;
pub mod findings;
pub mod memory;
pub mod minimise;
pub mod mutate;
pub mod rng;
pub mod targets;
