#pragma once
/// \file
/// What poc++'s own parse includes before every user file; precompiled at
/// build time (poc_parse.pch) because <poc/poc.hpp> is most of a parse.
#include <poc/poc.hpp>
#include <poc_address_marker.hpp>
#include <poc_start_marker.hpp>
