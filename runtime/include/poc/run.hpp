#pragma once
/// \file
/// Job start and end.

#include <functional>

namespace poc {

/// Runs a poc++ program: initialises MPI with MPI_THREAD_MULTIPLE, runs
/// `body(argc, argv)` once on rank 0 while every other rank serves
/// processes, and when `body` returns ends every process of the job (no
/// orphans; destructors of processes that were never deleted do not run),
/// finalises MPI and returns body's result on every rank. If `body` throws,
/// the error is printed, the job is ended and the result is 1.
/// poc++ emits `int main(int c, char** v) { return ::poc::run(c, v, &poc_user_main); }`.
/// If MPI is already initialised (with MPI_THREAD_MULTIPLE), run uses it and
/// leaves MPI_Finalize to the caller (benchmarks measure raw MPI first).
int run(int argc, char **argv, std::function<int(int, char **)> body);

/// Overload for a body without parameters (a user `int main()`).
int run(int argc, char **argv, int (*body)());

/// True between MPI initialisation and the end of `run`.
bool running() noexcept;

/// The number of the calling host: its MPI rank for the job's own ranks,
/// a number >= host_count() for a spawned host (docs/runtime.md section 11).
int host_rank();

/// The number of MPI ranks the job was started with (spawned hosts not
/// counted).
int host_count();

/// The number of CPUs the calling host's threads may use: every CPU the
/// kernel grants the process, also while the host still keeps Open MPI's
/// binding to one core (docs/runtime.md section 7, "CPU binding"). What a
/// program sizes a team of threads of its own by.
int usable_cpus() noexcept;

/// Lets every thread of the calling host, present and future, run on every
/// usable CPU now. The host does this by itself as soon as two of its
/// processes (or the main program and a process) run at once; a program
/// that starts threads of its own calls it first, or they share the one
/// core Open MPI bound the rank to. Keeps a binding to several CPUs, and
/// does nothing under POC_KEEP_BINDING.
void use_usable_cpus() noexcept;

} // namespace poc
