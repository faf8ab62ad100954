/* The device database: vendor figures with their sources (docs/limits.md lists them too).
 * FP figures are the vector (non-tensor, non-matrix) peak an OpenCL kernel can reach, FMA
 * counted as 2 flops; DRAM in GB/s (1e9 B/s); host link per direction after line encoding
 * (PCIe 4.0 x16: 16 GT/s x 16 x 128/130 / 8 = 31.5 GB/s; 5.0 x16: 63.0 GB/s; vendors quote
 * the sum of both directions, 64 and 128 GB/s). Rows are tried in order: specific names
 * before the general ones. */
#include "devdb.h"

#define PCIE4 31.508
#define PCIE5 63.015
#define SRC_PCIE4 "PCI Express Base Specification 4.0: 16 GT/s, 128b/130b, x16 = 31.5 GB/s per direction, https://pcisig.com/specifications"
#define SRC_PCIE5 "PCI Express Base Specification 5.0: 32 GT/s, 128b/130b, x16 = 63.0 GB/s per direction, https://pcisig.com/specifications"
#define SRC_H100 "NVIDIA H100 Tensor Core GPU datasheet, https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet"
#define SRC_H200 "NVIDIA H200 Tensor Core GPU product page and datasheet, https://www.nvidia.com/en-us/data-center/h200/"
#define SRC_A100 "NVIDIA A100 Tensor Core GPU datasheet, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf"
#define SRC_L40S "NVIDIA L40S datasheet, https://resources.nvidia.com/en-us-l40s/l40s-datasheet-28413"
#define SRC_ADA "NVIDIA Ada GPU Architecture whitepaper (AD102: 128 FP32, 2 FP64 lanes per SM), https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf"
#define SRC_MI250X "AMD Instinct MI250X accelerator specifications (whole OAM: 47.9 TFLOPS FP64 vector, 95.7 TFLOPS packed FP32, 3.2768 TB/s), https://www.amd.com/en/products/accelerators/instinct/mi200/mi250x.html; per GCD: AMD Instinct MI250 microarchitecture, https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi250.html"
#define SRC_MI300X "AMD Instinct MI300X data sheet, https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf"
#define SRC_MAX1550 "Intel Data Center GPU Max 1550 specifications (128 Xe cores, 1600 MHz, 3.2768 TB/s, PCIe 5.0 x16), https://www.intel.com/content/www/us/en/products/sku/232873/intel-data-center-gpu-max-1550/specifications.html"
#define SRC_MAX1100 "Intel Data Center GPU Max 1100 specifications (56 Xe cores, 1550 MHz, 1.2288 TB/s, PCIe 5.0 x16), https://www.intel.com/content/www/us/en/products/details/discrete-gpus/data-center-gpu/max-series.html"
#define SRC_XE "Intel Data Center GPU Max Series technical overview (8 vector engines of 512 bits per Xe core, FP64 at the FP32 rate), https://www.intel.com/content/www/us/en/developer/articles/technical/intel-data-center-gpu-max-series-overview.html"

static const clb_devdb_row rows[] = {
    {"h100-pcie", "NVIDIA", "H100 PCIe", NULL, "NVIDIA H100 PCIe 80 GB (HBM2e)", 128, 64, 114,
     51000, 26000, 2000, PCIE5, SRC_H100, SRC_H100, SRC_PCIE5,
     "FP at the 1755 MHz boost clock (114 SMs x 128 x 2 x 1.755 GHz = 51.2 TFLOPS)"},
    {"h100-nvl", "NVIDIA", "H100 NVL", NULL, "NVIDIA H100 NVL 94 GB", 128, 64, 132,
     60000, 30000, 3900, PCIE5, SRC_H100, SRC_H100, SRC_PCIE5, "FP at the NVL's lower boost clock"},
    {"h100-sxm5", "NVIDIA", "H100", NULL, "NVIDIA H100 SXM5 80 GB HBM3 (OpenCL: \"NVIDIA H100 80GB HBM3\")",
     128, 64, 132, 67000, 34000, 3350, PCIE5, SRC_H100, SRC_H100, SRC_PCIE5,
     "132 SMs x 128 FP32 lanes x 2 x 1.98 GHz = 66.9 TFLOPS; PCIe 5.0 x16 to the host"},
    {"h200-nvl", "NVIDIA", "H200 NVL", "GH200", "NVIDIA H200 NVL 141 GB", 128, 64, 132,
     60000, 30000, 4800, PCIE5, SRC_H200, SRC_H200, SRC_PCIE5, "FP at the NVL's lower boost clock"},
    {"h200-sxm", "NVIDIA", "H200", "GH200", "NVIDIA H200 SXM 141 GB HBM3e (OpenCL: \"NVIDIA H200\")",
     128, 64, 132, 67000, 34000, 4800, PCIE5, SRC_H200, SRC_H200, SRC_PCIE5,
     "132 SMs x 128 FP32 lanes x 2 x 1.98 GHz = 66.9 TFLOPS; HBM3e 4.8 TB/s; PCIe 5.0 x16"},
    {"a100-sxm4-40gb", "NVIDIA", "A100-SXM4-40GB", NULL, "NVIDIA A100 SXM4 40 GB", 64, 32, 108,
     19500, 9700, 1555, PCIE4, SRC_A100, SRC_A100, SRC_PCIE4, "108 SMs x 64 x 2 x 1.41 GHz = 19.5 TFLOPS"},
    {"a100-sxm4-80gb", "NVIDIA", "A100-SXM4-80GB", NULL, "NVIDIA A100 SXM4 80 GB", 64, 32, 108,
     19500, 9700, 2039, PCIE4, SRC_A100, SRC_A100, SRC_PCIE4, "108 SMs x 64 x 2 x 1.41 GHz = 19.5 TFLOPS"},
    {"a100-pcie-40gb", "NVIDIA", "A100-PCIE-40GB", NULL, "NVIDIA A100 PCIe 40 GB", 64, 32, 108,
     19500, 9700, 1555, PCIE4, SRC_A100, SRC_A100, SRC_PCIE4, "108 SMs x 64 x 2 x 1.41 GHz = 19.5 TFLOPS"},
    {"a100-pcie-80gb", "NVIDIA", "A100 80GB PCIe", NULL, "NVIDIA A100 PCIe 80 GB", 64, 32, 108,
     19500, 9700, 1935, PCIE4, SRC_A100, SRC_A100, SRC_PCIE4, "108 SMs x 64 x 2 x 1.41 GHz = 19.5 TFLOPS"},
    {"l40s", "NVIDIA", "L40S", NULL, "NVIDIA L40S 48 GB GDDR6", 128, 2, 142,
     91600, 1431, 864, PCIE4, SRC_L40S " (FP32); FP64 1/64 of it: " SRC_ADA, SRC_L40S, SRC_PCIE4,
     "FP at the 2520 MHz boost clock; GPU Boost may run higher, so the limit is the larger of "
     "this and SMs x lanes x 2 x the maximum clock the driver reports"},
    {"rtx-4090", "NVIDIA", "RTX 4090", NULL, "NVIDIA GeForce RTX 4090 24 GB GDDR6X", 128, 2, 128,
     82600, 1290, 1008, PCIE4, SRC_ADA, SRC_ADA, SRC_PCIE4,
     "FP at the 2520 MHz boost clock; cards boost beyond it, so the limit is the larger of this "
     "and SMs x lanes x 2 x the maximum clock the driver reports"},
    {"mi250x-gcd", "Advanced Micro Devices", "MI250X", NULL,
     "AMD Instinct MI250X, one GCD (OpenCL shows each of the two GCDs as a device)", 128, 64, 110,
     47900, 23950, 1638.4, 36.0, SRC_MI250X, SRC_MI250X, SRC_PCIE4 "; 36 GB/s per direction per GCD over Infinity Fabric on HPE Cray EX (Frontier) hosts",
     "half the OAM figures; FP32 is the packed-FP32 (v_pk_fma_f32) rate; 1.7 GHz; the link "
     "limit is the larger of PCIe 4.0 x16 and the Infinity Fabric CPU link"},
    {"mi300x", "Advanced Micro Devices", "MI300X", NULL, "AMD Instinct MI300X 192 GB HBM3 (SPX mode)", 128, 64, 304,
     163400, 81700, 5300, PCIE5, SRC_MI300X, SRC_MI300X, SRC_PCIE5,
     "FP32 is the vector figure with packed FP32; 2.1 GHz; in CPX/DPX partition modes a device "
     "has a share of the compute units (the FP limits scale with them)"},
    {"max-1550", "Intel", "Max 1550", NULL, "Intel Data Center GPU Max 1550 (two stacks)", 16, 16, 1024,
     52430, 52430, 3276.8, PCIE5, SRC_MAX1550 "; " SRC_XE, SRC_MAX1550, SRC_PCIE5,
     "128 Xe cores x 8 vector engines x 16 FP32 lanes x 2 x 1.6 GHz; one stack as a device "
     "reports half the compute units and gets half the limits"},
    {"max-1100", "Intel", "Max 1100", NULL, "Intel Data Center GPU Max 1100 48 GB", 16, 16, 448,
     22220, 22220, 1228.8, PCIE5, SRC_MAX1100 "; " SRC_XE, SRC_MAX1100, SRC_PCIE5,
     "56 Xe cores x 8 vector engines x 16 FP32 lanes x 2 x 1.55 GHz"},
    /* Architectures without a product row: lanes only, the peak is derived from the
     * reported compute units and clock. */
    {"hopper", "NVIDIA", "H800", NULL, "NVIDIA Hopper GH100 SM", 128, 64, 0, 0, 0, 0, 0,
     "NVIDIA H100 whitepaper: 128 FP32 and 64 FP64 lanes per SM", NULL, NULL, "derived"},
    {"grace-hopper", "NVIDIA", "GH200", NULL, "NVIDIA Hopper GH100 SM", 128, 64, 0, 0, 0, 0, 0,
     "NVIDIA H100 whitepaper: 128 FP32 and 64 FP64 lanes per SM", NULL, NULL, "derived"},
    {"ampere-a100", "NVIDIA", "A100", NULL, "NVIDIA Ampere GA100 SM", 64, 32, 0, 0, 0, 0, 0,
     "NVIDIA A100 whitepaper: 64 FP32 and 32 FP64 lanes per SM", NULL, NULL, "derived"},
    {"ampere-ga100", "NVIDIA", "A800", NULL, "NVIDIA Ampere GA100 SM", 64, 32, 0, 0, 0, 0, 0,
     "NVIDIA A100 whitepaper: 64 FP32 and 32 FP64 lanes per SM", NULL, NULL, "derived"},
    {"volta", "NVIDIA", "V100", NULL, "NVIDIA Volta GV100 SM", 64, 32, 0, 0, 0, 0, 0,
     "NVIDIA V100 whitepaper: 64 FP32 and 32 FP64 lanes per SM", NULL, NULL, "derived"},
    {"ada-l40", "NVIDIA", "L40", NULL, "NVIDIA Ada AD102 SM", 128, 2, 0, 0, 0, 0, 0, SRC_ADA, NULL, NULL, "derived"},
    {"ampere-ga102", "NVIDIA", "A10", NULL, "NVIDIA Ampere GA102 SM", 128, 2, 0, 0, 0, 0, 0,
     "NVIDIA Ampere GA102 whitepaper: 128 FP32, 2 FP64 lanes per SM", NULL, NULL, "derived"},
};

size_t clb_devdb_count(void)
{
    return sizeof rows / sizeof rows[0];
}

const clb_devdb_row *clb_devdb_at(size_t i)
{
    return i < clb_devdb_count() ? &rows[i] : NULL;
}
