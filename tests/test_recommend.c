/* The recommend models (lib/decide/recommend.c) on hand-made device entries: each formula with
 * hand-computed numbers, missing rows named, failed rows not used, the measured-time lookup. */
#include "core/internal.h"
#include "judge/judge.h"

#include <math.h>
#include <string.h>
#include "check.h"

static const char *entry_text =
    "{\"selection\":{\"platform_index\":0,\"device_index\":1},\"device\":{\"CL_DEVICE_NAME\":\"X\"},\"results\":["
    "{\"name\":\"memory.triad\",\"status\":\"ok\",\"value\":100,\"unit\":\"GB/s\"},"
    "{\"name\":\"memory.copy\",\"status\":\"ok\",\"value\":80,\"unit\":\"GB/s\"},"
    "{\"name\":\"launch.queued_end\",\"status\":\"ok\",\"value\":10,\"unit\":\"us\"},"
    "{\"name\":\"launch.roundtrip\",\"status\":\"ok\",\"value\":20,\"unit\":\"us\"},"
    "{\"name\":\"memory.latency\",\"status\":\"invalid\",\"reason\":\"x\"},"
    "{\"name\":\"memory.chase_roundtrip\",\"status\":\"ok\",\"value\":500,\"unit\":\"us\",\"params\":{\"loads\":1024}},"
    "{\"name\":\"transfer.h2d_pageable\",\"status\":\"ok\",\"value\":10,\"unit\":\"GB/s\",\"params\":{\"curve\":"
    "{\"points\":[[4,0.004],[1048576,5],[4194304,10]]}}},"
    "{\"name\":\"transfer.d2h_pageable\",\"status\":\"ok\",\"value\":8,\"unit\":\"GB/s\"},"
    "{\"name\":\"compute.fp32.fma\",\"status\":\"ok\",\"value\":1000,\"unit\":\"GFLOP/s\"},"
    "{\"name\":\"app.sgemm.pthreads\",\"status\":\"ok\",\"value\":900,\"unit\":\"GFLOP/s\",\"params\":{\"n\":512}},"
    "{\"name\":\"app.sgemm.tiled\",\"status\":\"ok\",\"value\":200,\"unit\":\"GFLOP/s\",\"params\":{\"n\":512}},"
    "{\"name\":\"app.sgemm.tuned\",\"status\":\"ok\",\"value\":400,\"unit\":\"GFLOP/s\",\"params\":{\"n\":512}},"
    "{\"name\":\"app.euler.string.f32.seq\",\"status\":\"ok\",\"value\":0.01,\"unit\":\"ns\"},"
    "{\"name\":\"app.euler.string.f32.vectorized\",\"status\":\"ok\",\"value\":0.2,\"unit\":\"ns\"},"
    "{\"name\":\"app.euler.string.f32.linear\",\"status\":\"ok\",\"value\":0.4,\"unit\":\"ns\"}]}";

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b);
}

int main(void)
{
    cJSON *e = cJSON_Parse(entry_text);
    clb_prediction p;
    clb_workload_kind w;
    char row[96];
    CHECK(e && clb_workload_parse("stencil", &w) && w == CLB_WORKLOAD_STENCIL && !clb_workload_parse("gem", &w));
    clb_predict(e, CLB_WORKLOAD_STREAM, 1e6, 0, &p);
    EXPECT(p.ranked && near(p.seconds, 12e6 / 100e9 + 10e-6), "stream %g", p.seconds);
    clb_predict(e, CLB_WORKLOAD_STREAM, 1e6, 1, &p);
    CHECK(p.ranked && near(p.seconds, 12e6 / 100e9 + 10e-6 + 8e6 / 10e9 + 4e6 / 8e9));
    clb_predict(e, CLB_WORKLOAD_GEMM, 1000, 0, &p); /* the tuned rung, not the host pthreads row */
    EXPECT(p.ranked && near(p.seconds, 2e9 / 400e9) && strstr(p.deciding, "app.sgemm.tuned") && !p.assumption[0],
           "gemm %g %s", p.seconds, p.deciding);
    clb_predict(e, CLB_WORKLOAD_STENCIL, 1000, 0, &p);
    CHECK(p.ranked && near(p.seconds, 1000 * 64 * 8 / 80e9));
    clb_predict(e, CLB_WORKLOAD_TRANSFER, 1e8, 0, &p); /* latency: 4 B at 0.004 GB/s = 1 us */
    EXPECT(p.ranked && near(p.seconds, 1e8 / 10e9 + 1e-6), "transfer %g", p.seconds);
    clb_predict(e, CLB_WORKLOAD_TRANSFER, 2097152, 0, &p); /* the curve at the size: 7.5 GB/s */
    EXPECT(p.ranked && near(p.seconds, 2097152 / 7.5e9 + 1e-6), "transfer %g", p.seconds);
    clb_predict(e, CLB_WORKLOAD_LATENCY, 10, 0, &p); /* memory.latency failed: not used */
    CHECK(!p.ranked && isnan(p.seconds) && strcmp(p.missing, "memory.latency") == 0);
    /* The suite's own times: best OpenCL Euler row (not seq), the tuned rung, the curve. */
    CHECK(near(clb_workload_measured(e, CLB_WORKLOAD_STENCIL, 1000, row, sizeof row), 1000 * 64 * 0.2e-9) &&
          strcmp(row, "app.euler.string.f32.vectorized") == 0);
    CHECK(near(clb_workload_measured(e, CLB_WORKLOAD_GEMM, 1000, row, sizeof row), 2e9 / 400e9));
    CHECK(near(clb_workload_measured(e, CLB_WORKLOAD_TRANSFER, 2097152, row, sizeof row), 2097152 / 7.5e9));
    CHECK(isnan(clb_workload_measured(e, CLB_WORKLOAD_STREAM, 1000, row, sizeof row)) && !row[0]);
    /* The latency workload measured whole, only at the loads it ran. */
    CHECK(near(clb_workload_measured(e, CLB_WORKLOAD_LATENCY, 1024, row, sizeof row), 500e-6) &&
          strcmp(row, "memory.chase_roundtrip") == 0);
    CHECK(isnan(clb_workload_measured(e, CLB_WORKLOAD_LATENCY, 1000, row, sizeof row)));
    /* The latency model: launch.roundtrip + loads x memory.latency on a GPU; on a CPU the chase's
     * own launch, memory.latency's wall - event per launch (here 200 us), when above the round trip. */
    static const char *lat_text =
        "{\"device\":{\"CL_DEVICE_TYPE\":\"CL_DEVICE_TYPE_GPU\"},\"results\":["
        "{\"name\":\"launch.roundtrip\",\"status\":\"ok\",\"value\":20,\"unit\":\"us\"},"
        "{\"name\":\"memory.latency\",\"status\":\"ok\",\"value\":100,\"unit\":\"ns\",\"params\":"
        "{\"wall_time_median_s\":0.0102,\"launch_time_median_s\":0.01,\"work_per_launch\":100000,"
        "\"working_set_bytes\":1073741824}}]}";
    cJSON *lat = cJSON_Parse(lat_text);
    cJSON *lat_type = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(lat, "device"), "CL_DEVICE_TYPE");
    clb_predict(lat, CLB_WORKLOAD_LATENCY, 1024, 0, &p);
    EXPECT(p.ranked && near(p.seconds, 20e-6 + 1024 * 100e-9) && !p.assumption[0], "latency on a GPU %g", p.seconds);
    cJSON_SetValuestring(lat_type, "CL_DEVICE_TYPE_CPU");
    clb_predict(lat, CLB_WORKLOAD_LATENCY, 1024, 0, &p); /* the old formula gave 122.4 us */
    EXPECT(p.ranked && near(p.seconds, 200e-6 + 1024 * 100e-9) && strstr(p.deciding, "wall - event") && !p.assumption[0],
           "latency on a CPU %g %s", p.seconds, p.deciding);
    cJSON *lat_p = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(lat, "results"), 1), "params");
    cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(lat_p, "wall_time_median_s"), 0.010005); /* 5 us: below the round trip */
    clb_predict(lat, CLB_WORKLOAD_LATENCY, 1024, 0, &p);
    EXPECT(p.ranked && near(p.seconds, 20e-6 + 1024 * 100e-9), "latency on a CPU, small wall - event %g", p.seconds);
    cJSON_DeleteItemFromObjectCaseSensitive(lat_p, "wall_time_median_s"); /* an older document: said as an assumption */
    clb_predict(lat, CLB_WORKLOAD_LATENCY, 1024, 0, &p);
    EXPECT(p.ranked && near(p.seconds, 20e-6 + 1024 * 100e-9) && p.assumption[0], "latency on a CPU, no times %g", p.seconds);
    cJSON_Delete(lat);
    /* A CPU's triad moves 16 B per element for the 12 it counts (write-allocate). */
    cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(e, "device"), "CL_DEVICE_TYPE", "CL_DEVICE_TYPE_CPU");
    clb_predict(e, CLB_WORKLOAD_STREAM, 1e6, 0, &p);
    EXPECT(p.ranked && near(p.seconds, 12e6 / (100e9 * 4 / 3) + 10e-6) && strstr(p.model, "write-allocate"),
           "stream on a CPU %g", p.seconds);
    CHECK(near(clb_write_allocate_factor(e, "memory.copy"), 1.5) && clb_write_allocate_factor(e, "memory.read_linear") == 1);
    /* Without any GEMM rung: the FMA peak x the documented efficiency, said as an assumption. */
    cJSON *res = cJSON_GetObjectItemCaseSensitive(e, "results");
    for (int i = cJSON_GetArraySize(res) - 1; i >= 0; i--)
        if (strncmp(cJSON_GetArrayItem(res, i)->child->valuestring, "app.sgemm", 9) == 0)
            cJSON_DeleteItemFromArray(res, i);
    clb_predict(e, CLB_WORKLOAD_GEMM, 1000, 0, &p);
    CHECK(p.ranked && near(p.seconds, 2e9 / 500e9) && p.assumption[0]);
    cJSON_Delete(e);
    printf("recommend: %d failure(s)\n", failures);
    return failures != 0;
}
