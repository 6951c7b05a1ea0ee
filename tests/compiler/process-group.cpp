// Golden test of examples/process-group: a class derived from
// poc::ProcessGroupMember is remotable; SetProcessGroup<X> (a member
// template) gets its own interface unit, sends the group as POC_COUNT(my_N)
// references, and the derived server serves SetProcessGroup<X> for X = the
// class and each group base; barrier() on `this` stays a local call.
// RUN: %pocxx --translate-only %S/../../examples/process-group/process_group.cpp -o - | FileCheck %s

// CHECK: barrier();
// CHECK-LABEL: struct ComputingProcess_interface {
// CHECK: Compute_0 = ::poc::method_id("ComputingProcess::Compute()"),
// CHECK-LABEL: struct poc_ProcessGroupMember_SetProcessGroup_ComputingProcess_interface {
// CHECK: SetProcessGroup_0 = ::poc::method_id("poc::ProcessGroupMember::SetProcessGroup<ComputingProcess>(int, int, ComputingProcess *const *)"),
// CHECK: ::poc_gen::ComputingProcess_client::start_create_0(machine[i], data);
// CHECK: ::poc_gen::poc_ProcessGroupMember_SetProcessGroup_ComputingProcess_client::SetProcessGroup_0(process_group[i], i, N, process_group);
// CHECK: ::poc_gen::ComputingProcess_client::Compute_0_start(process_group[i]);
// CHECK: ::poc_gen::poc_ProcessGroupMember_client::NumberOfProcesses_0(process_group[0])
// CHECK: poc_gen::poc_ProcessGroupMember_SetProcessGroup_ComputingProcess_client::SetProcessGroup_0(::poc::ProcessGroupMember *self, int my_id, int my_N, ::ComputingProcess *const *my_group) {
// CHECK: call.args(my_id, my_N, ::poc::counted(my_group, my_N));
// CHECK-LABEL: struct ComputingProcess_server : ComputingProcess_interface {
// CHECK: case ::poc::method_id("poc::ProcessGroupMember::ID() const"):
// CHECK: case ::poc::method_id("poc::ProcessGroupMember::SetProcessGroup<ComputingProcess>(int, int, ComputingProcess *const *)"):
// CHECK: &::poc::ProcessGroupMember::SetProcessGroup<::ComputingProcess>));
// CHECK: case ::poc::method_id("poc::ProcessGroupMember::SetProcessGroup<poc::ProcessGroupMember>(int, int, poc::ProcessGroupMember *const *)"):
