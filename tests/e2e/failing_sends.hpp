#pragma once
// Sends that fail as Open MPI's do when their peer has died
// (failing_sends.cpp), so that a test can make a send notice a death
// before anything else in the runtime does.

/// From now on every MPI_Isend to another host (on any communicator but
/// MPI_COMM_WORLD and MPI_COMM_SELF) fails with MPI_ERR_INTERN.
void fail_sends_from_now_on();
