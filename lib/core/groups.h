/* The one list naming every benchmark group, in the order `clbench run --list` prints them (in
 * the spirit of libuv's test-list.h). Each group's file defines clb_GROUP_rows[] and
 * clb_GROUP_row_count; adding a group = one line here. */
CLB_GROUP(launch)
CLB_GROUP(compile)
CLB_GROUP(transfer)
CLB_GROUP(branch)
CLB_GROUP(latency)
CLB_GROUP(atomics)
CLB_GROUP(sustained)
CLB_GROUP(compute)
CLB_GROUP(memory)
CLB_GROUP(app_saxpy)
CLB_GROUP(app_gemm)
CLB_GROUP(app_cuda)
CLB_GROUP(euler)
CLB_GROUP(app_mcpi)
CLB_GROUP(app_strmatch)
