#pragma once
/// \file
/// The poc++ public API. poc++ includes it in every translation unit it
/// compiles; including it explicitly also works. docs/runtime.md describes
/// the semantics and the shape of generated code.

#include <poc/annotations.hpp>
#include <poc/call.hpp>
#include <poc/create.hpp>
#include <poc/errors.hpp>
#include <poc/future.hpp>
#include <poc/local_object.hpp>
#include <poc/machine.hpp>
#include <poc/method_id.hpp>
#include <poc/persistent.hpp>
#include <poc/process_group.hpp>
#include <poc/process_id.hpp>
#include <poc/registration.hpp>
#include <poc/remote_array.hpp>
#include <poc/request.hpp>
#include <poc/run.hpp>
#include <poc/serialize.hpp>
#include <poc/sync.hpp>
