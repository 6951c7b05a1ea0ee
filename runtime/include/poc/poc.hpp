#pragma once
/// \file
/// The poc++ API a program uses: machines, on which `new(m) T(args)` and
/// `new(m) E[n]` create processes and remote arrays; futures and
/// `poc::sync()`; process groups; persistent processes; errors; `poc::run`;
/// source annotations; serialisation (custom `poc::Serializer`s) and
/// `poc::local_object`. poc++ makes it visible in every file it parses;
/// including it explicitly also works. docs/language.md describes the
/// language, docs/runtime.md the semantics.
///
/// Not in here: <poc/group_communicator.hpp> (it includes <mpi.h>, which a
/// program that makes no MPI calls of its own should not have to parse), and
/// what generated code calls, <poc/gen/runtime.hpp>.

#include <poc/annotations.hpp>
#include <poc/errors.hpp>
#include <poc/future.hpp>
#include <poc/local_object.hpp>
#include <poc/machine.hpp>
#include <poc/persistent.hpp>
#include <poc/process_group.hpp>
#include <poc/process_id.hpp>
#include <poc/run.hpp>
#include <poc/serialize.hpp>
#include <poc/start_on.hpp>
#include <poc/sync.hpp>
