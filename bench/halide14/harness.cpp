// halide14_bench: runs and times Halide 14's bilateral_grid, local_laplacian
// and camera_pipe apps (generators of Halide's v14.0.0 tag, compiled ahead of
// time by build.sh for a CPU target and a CUDA target) and prints one JSON
// line per run on stdout. See README.md next to this file.
//
//   halide14_bench APP TARGET [options]
//     APP     bilateral_grid | local_laplacian | camera_pipe
//     TARGET  cpu | cuda
//   options:
//     --runs N       timed runs (default 50)
//     --warmup N     untimed runs before them (default 5)
//     --in FILE      input as raw little-endian elements, x fastest, then y,
//                    then c (default: random, see --seed)
//     --out FILE     write the output the same way
//     --save-in FILE write the input the same way (e.g. the random one)
//     --seed S       seed of the random input (default 1)
//     --width W --height H   input size (defaults: the apps' sizes)
//     --no-reuse     CUDA: do not let Halide's runtime keep device
//                    allocations between runs (it does by default)
//
// Exit status: 0 on success, 1 when Halide (or the driver) reported an error,
// 2 on bad usage or input.

#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include "HalideRuntimeCuda.h"

#include "bilateral_grid_cpu.h"
#include "bilateral_grid_cuda.h"
#include "camera_pipe_cpu.h"
#include "camera_pipe_cuda.h"
#include "local_laplacian_cpu.h"
#include "local_laplacian_cuda.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using Halide::Runtime::Buffer;

extern "C" int halide_host_cpu_count();

// The static libstdc++ of GCC 12 refers to arc4random (std::random_device,
// pulled in through its exception classes), which glibc has only from 2.36.
// This definition keeps the runner loadable on glibc 2.34 and 2.35; nothing
// here uses std::random_device.
extern "C" uint32_t arc4random(void) {
    static uint64_t s = 0x853c49e6748fea9bULL;
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(s >> 32);
}

namespace {

[[noreturn]] void usage(const char *msg) {
    fprintf(stderr, "halide14_bench: %s\n", msg);
    fprintf(stderr,
            "usage: halide14_bench bilateral_grid|local_laplacian|camera_pipe cpu|cuda\n"
            "       [--runs N] [--warmup N] [--in FILE] [--out FILE] [--save-in FILE] [--seed S]\n"
            "       [--width W] [--height H] [--no-reuse]\n");
    exit(2);
}

// The random input: splitmix64 from the seed, one draw per element in the
// buffer's dense order (x fastest, then y, then c).
struct SplitMix64 {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
};

template<typename T>
bool read_raw(const std::string &path, Buffer<T> &b) {
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) {
        fprintf(stderr, "halide14_bench: cannot open %s\n", path.c_str());
        return false;
    }
    size_t n = b.number_of_elements();
    size_t got = fread(b.data(), sizeof(T), n, f);
    char extra;
    bool more = fread(&extra, 1, 1, f) == 1;
    fclose(f);
    if (got != n || more) {
        fprintf(stderr, "halide14_bench: %s: want exactly %zu elements of %zu bytes (%zu bytes), got %s\n",
                path.c_str(), n, sizeof(T), n * sizeof(T), more ? "more" : "fewer");
        return false;
    }
    return true;
}

// load_or_fill reads b from path (false when that fails), or, when path is
// empty, fills it with values of draw (the random input).
template<typename T, typename F>
bool load_or_fill(const std::string &path, Buffer<T> &b, F draw) {
    if (!path.empty()) return read_raw(path, b);
    T *p = b.data();
    for (size_t i = 0; i < b.number_of_elements(); i++) p[i] = draw();
    return true;
}

template<typename T>
bool write_raw(const std::string &path, const Buffer<T> &b) {
    FILE *f = fopen(path.c_str(), "wb");
    if (!f) {
        fprintf(stderr, "halide14_bench: cannot create %s\n", path.c_str());
        return false;
    }
    size_t n = b.number_of_elements();
    bool ok = fwrite(b.data(), sizeof(T), n, f) == n;
    ok = (fclose(f) == 0) && ok;
    if (!ok) fprintf(stderr, "halide14_bench: writing %s failed\n", path.c_str());
    return ok;
}

// --- CUDA driver entry points for events, through dlopen (no CUDA headers or
// libraries at build time). Halide's runtime loads libcuda.so by itself.
typedef int CUresult;
typedef void *CUcontext;
typedef void *CUevent;
typedef void *CUstream;
struct Cuda {
    bool ok = false;
    CUresult (*ctxPush)(CUcontext) = nullptr;
    CUresult (*ctxPop)(CUcontext *) = nullptr;
    CUresult (*eventCreate)(CUevent *, unsigned) = nullptr;
    CUresult (*eventRecord)(CUevent, CUstream) = nullptr;
    CUresult (*eventSynchronize)(CUevent) = nullptr;
    CUresult (*eventElapsed)(float *, CUevent, CUevent) = nullptr;
    CUresult (*ctxGetDevice)(int *) = nullptr;
    CUresult (*deviceGetName)(char *, int, int) = nullptr;
    CUresult (*driverGetVersion)(int *) = nullptr;
    void load() {
        void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
        if (!h) h = dlopen("libcuda.so", RTLD_NOW | RTLD_GLOBAL);
        if (!h) return;
        auto sym = [&](const char *a, const char *b) -> void * {
            void *p = dlsym(h, a);
            if (!p && b) p = dlsym(h, b);
            return p;
        };
        ctxPush = (decltype(ctxPush))sym("cuCtxPushCurrent_v2", "cuCtxPushCurrent");
        ctxPop = (decltype(ctxPop))sym("cuCtxPopCurrent_v2", "cuCtxPopCurrent");
        eventCreate = (decltype(eventCreate))sym("cuEventCreate", nullptr);
        eventRecord = (decltype(eventRecord))sym("cuEventRecord", nullptr);
        eventSynchronize = (decltype(eventSynchronize))sym("cuEventSynchronize", nullptr);
        eventElapsed = (decltype(eventElapsed))sym("cuEventElapsedTime", "cuEventElapsedTime_v2");
        ctxGetDevice = (decltype(ctxGetDevice))sym("cuCtxGetDevice", nullptr);
        deviceGetName = (decltype(deviceGetName))sym("cuDeviceGetName", nullptr);
        driverGetVersion = (decltype(driverGetVersion))sym("cuDriverGetVersion", nullptr);
        ok = ctxPush && ctxPop && eventCreate && eventRecord && eventSynchronize && eventElapsed;
    }
};

// Halide's CUDA context: the default acquire handler, wrapped to remember it.
halide_cuda_acquire_context_t default_acquire = nullptr;
void *halide_ctx = nullptr;
int remember_acquire(void *uc, void **ctx, bool create) {
    int r = default_acquire(uc, ctx, create);
    if (r == 0 && ctx && *ctx) halide_ctx = *ctx;
    return r;
}

// Halide's default error handler prints the message and aborts; this one
// prints it the same way, keeps it for the JSON line, and lets the pipeline
// return its error code, so that a failure exits 1 cleanly.
std::string last_error;
void error_handler(void *, const char *msg) {
    fprintf(stderr, "Error: %s\n", msg);
    if (last_error.empty()) last_error = msg;
    while (!last_error.empty() && (last_error.back() == '\n' || last_error.back() == ' ')) last_error.pop_back();
}

double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

std::string json_str(const std::string &s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += c;
        } else if ((unsigned char)c < 0x20) {
            char buf[8];
            snprintf(buf, sizeof buf, "\\u%04x", c);
            o += buf;
        } else {
            o += c;
        }
    }
    return o + "\"";
}

std::string fmt(double v) {
    char buf[64];
    snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

template<typename T>
std::string checksum(const Buffer<T> &b) {
    double sum = 0, mn = 1e300, mx = -1e300;
    size_t n = b.number_of_elements();
    const T *p = b.data();
    for (size_t i = 0; i < n; i++) {
        double v = (double)p[i];
        sum += v;
        mn = std::min(mn, v);
        mx = std::max(mx, v);
    }
    char sbuf[64];
    snprintf(sbuf, sizeof sbuf, "%.17g", sum);
    return "\"out_sum\":" + std::string(sbuf) + ",\"out_mean\":" + fmt(n ? sum / n : 0) + ",\"out_min\":" + fmt(mn) +
           ",\"out_max\":" + fmt(mx);
}

int desired_threads() {
    // What Halide 14's thread pool does when halide_set_num_threads was not called.
    for (const char *v : {"HL_NUM_THREADS", "HL_NUMTHREADS"}) {
        const char *s = getenv(v);
        if (s && *s) return atoi(s);
    }
    return halide_host_cpu_count();
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) usage("need APP and TARGET");
    std::string app = argv[1], target = argv[2];
    if (app != "bilateral_grid" && app != "local_laplacian" && app != "camera_pipe") usage("unknown APP");
    if (target != "cpu" && target != "cuda") usage("TARGET must be cpu or cuda");
    int runs = 50, warmup = 5, width = 0, height = 0;
    uint64_t seed = 1;
    bool reuse = true;
    std::string in_path, out_path, save_in_path;
    for (int i = 3; i < argc; i++) {
        std::string a = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc) usage(("missing value after " + a).c_str());
            return argv[++i];
        };
        if (a == "--runs") runs = atoi(val().c_str());
        else if (a == "--warmup") warmup = atoi(val().c_str());
        else if (a == "--in") in_path = val();
        else if (a == "--out") out_path = val();
        else if (a == "--save-in") save_in_path = val();
        else if (a == "--seed") seed = strtoull(val().c_str(), nullptr, 10);
        else if (a == "--width") width = atoi(val().c_str());
        else if (a == "--height") height = atoi(val().c_str());
        else if (a == "--no-reuse") reuse = false;
        else usage(("unknown option " + a).c_str());
    }
    if (runs < 1 || warmup < 0) usage("--runs must be >= 1 and --warmup >= 0");
    halide_set_error_handler(error_handler);
    const bool gpu = target == "cuda";
    const halide_device_interface_t *cuda_iface = gpu ? halide_cuda_device_interface() : nullptr;
    SplitMix64 rng{seed};
    std::string input_desc = in_path.empty() ? "splitmix64 seed " + std::to_string(seed) : "file " + in_path;

    // Each app sets these.
    std::function<int()> call;                        // one run of the pipeline
    std::vector<halide_buffer_t *> inputs;            // buffers to put on the device
    halide_buffer_t *output = nullptr;
    std::function<bool()> write_output, write_input;
    std::function<std::string()> sum_output;
    std::string size, params;
    std::string halide_target;  // from the pipeline's metadata

    // bilateral_grid: filter.cpp runs it on gray.png (1536 x 2560) with
    // r_sigma 0.1; the generator's s_sigma is 8. Random input: uniform floats
    // in [0, 1): (draw >> 40) * 2^-24.
    Buffer<float> bg_in, bg_out;
    const float r_sigma = 0.1f;
    // local_laplacian: process.cpp runs it on rgb.png (16-bit, 1536 x 2560 x 3)
    // with levels 8, alpha 1, beta 1, and passes alpha / (levels - 1) to the
    // pipeline. Random input: draw >> 48.
    Buffer<uint16_t> ll_in, ll_out;
    const int ll_levels = 8;
    const float ll_alpha = 1.0f, ll_beta = 1.0f;
    // camera_pipe: process.cpp with bayer_raw.png (2592 x 1968), the N900
    // matrices, color temp 3700, gamma 2.0, contrast 50, sharpen 1.0, black
    // level 25, white level 1023; output ((w-32)/32*32) x ((h-24)/32*32) x 3.
    // Random input: 10-bit values, draw >> 54.
    Buffer<uint16_t> cp_in;
    Buffer<uint8_t> cp_out;
    Buffer<float> m3200(4, 3), m7000(4, 3);
    const float cp_temp = 3700, cp_gamma = 2.0f, cp_contrast = 50, cp_sharpen = 1.0f;
    const int cp_black = 25, cp_white = 1023;

    // bind makes in (the image) and out the app's input and output: put on
    // the device, written by --save-in and --out, checksummed.
    auto bind = [&](auto &in, auto &out) {
        auto *i = &in;
        auto *o = &out;
        inputs = {i->raw_buffer()};
        output = o->raw_buffer();
        write_output = [&, o]() { return write_raw(out_path, *o); };
        write_input = [&, i]() { return write_raw(save_in_path, *i); };
        sum_output = [o]() { return checksum(*o); };
    };

    if (app == "bilateral_grid") {
        int w = width ? width : 1536, h = height ? height : 2560;
        bg_in = Buffer<float>(w, h);
        bg_out = Buffer<float>(w, h);
        if (!load_or_fill(in_path, bg_in, [&]() { return (float)(rng.next() >> 40) * (1.0f / 16777216.0f); })) return 2;
        size = std::to_string(w) + "x" + std::to_string(h);
        params = "\"r_sigma\":0.1,\"s_sigma\":8";
        auto fn = gpu ? bilateral_grid_cuda : bilateral_grid_cpu;
        halide_target = (gpu ? bilateral_grid_cuda_metadata() : bilateral_grid_cpu_metadata())->target;
        call = [&, fn]() { return fn(bg_in.raw_buffer(), r_sigma, bg_out.raw_buffer()); };
        bind(bg_in, bg_out);
    } else if (app == "local_laplacian") {
        int w = width ? width : 1536, h = height ? height : 2560;
        ll_in = Buffer<uint16_t>(w, h, 3);
        ll_out = Buffer<uint16_t>(w, h, 3);
        if (!load_or_fill(in_path, ll_in, [&]() { return (uint16_t)(rng.next() >> 48); })) return 2;
        size = std::to_string(w) + "x" + std::to_string(h) + "x3";
        params = "\"levels\":8,\"alpha\":1,\"beta\":1,\"alpha_passed\":" + fmt(ll_alpha / (ll_levels - 1)) +
                 ",\"pyramid_levels\":8";
        auto fn = gpu ? local_laplacian_cuda : local_laplacian_cpu;
        halide_target = (gpu ? local_laplacian_cuda_metadata() : local_laplacian_cpu_metadata())->target;
        call = [&, fn]() {
            return fn(ll_in.raw_buffer(), ll_levels, ll_alpha / (ll_levels - 1), ll_beta, ll_out.raw_buffer());
        };
        bind(ll_in, ll_out);
    } else {
        int w = width ? width : 2592, h = height ? height : 1968;
        int ow = ((w - 32) / 32) * 32, oh = ((h - 24) / 32) * 32;
        if (ow <= 0 || oh <= 0) usage("camera_pipe needs an input of at least 64 x 56");
        cp_in = Buffer<uint16_t>(w, h);
        cp_out = Buffer<uint8_t>(ow, oh, 3);
        if (!load_or_fill(in_path, cp_in, [&]() { return (uint16_t)(rng.next() >> 54); })) return 2;
        // process.cpp's matrices (Nokia N900 sensor, from FCam), matrix(j, i) = m[i][j].
        const float a3200[3][4] = {{1.6697f, -0.2693f, -0.4004f, -42.4346f},
                                   {-0.3576f, 1.0615f, 1.5949f, -37.1158f},
                                   {-0.2175f, -1.8751f, 6.9640f, -26.6970f}};
        const float a7000[3][4] = {{2.2997f, -0.4478f, 0.1706f, -39.0923f},
                                   {-0.3826f, 1.5906f, -0.2080f, -25.4311f},
                                   {-0.0888f, -0.7344f, 2.2832f, -20.0826f}};
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 4; j++) {
                m3200(j, i) = a3200[i][j];
                m7000(j, i) = a7000[i][j];
            }
        }
        size = std::to_string(w) + "x" + std::to_string(h) + " -> " + std::to_string(ow) + "x" + std::to_string(oh) + "x3";
        params = "\"color_temp\":3700,\"gamma\":2,\"contrast\":50,\"sharpen\":1,\"black_level\":25,\"white_level\":1023";
        auto fn = gpu ? camera_pipe_cuda : camera_pipe_cpu;
        halide_target = (gpu ? camera_pipe_cuda_metadata() : camera_pipe_cpu_metadata())->target;
        call = [&, fn]() {
            return fn(cp_in.raw_buffer(), m3200.raw_buffer(), m7000.raw_buffer(), cp_temp, cp_gamma, cp_contrast,
                      cp_sharpen, cp_black, cp_white, cp_out.raw_buffer());
        };
        bind(cp_in, cp_out);
        inputs.push_back(m3200.raw_buffer());
        inputs.push_back(m7000.raw_buffer());
    }

    if (!save_in_path.empty() && !write_input()) return 2;

    auto fail = [&](const char *what, int err) {
        fprintf(stderr, "halide14_bench: %s %s: %s failed with Halide error %d\n", app.c_str(), target.c_str(), what, err);
        printf("{\"app\":%s,\"target\":%s,\"size\":%s,\"error\":%s}\n", json_str(app).c_str(), json_str(target).c_str(),
               json_str(size).c_str(), json_str(std::string(what) + " failed with Halide error " + std::to_string(err) +
                        (last_error.empty() ? "" : ": " + last_error)).c_str());
        fflush(stdout);
        return 1;
    };

    Cuda cu;
    std::string timer = "steady_clock";
    std::string device = "cpu";
    double setup_ms = 0;
    if (gpu) {
        // Load libcuda.so.1 (RTLD_GLOBAL) before Halide's runtime needs it:
        // the runtime first looks its entry points up in the process and
        // only then dlopens "libcuda.so", a name that a driver-only install
        // (e.g. a container with the driver mounted) may lack.
        cu.load();
        default_acquire = halide_set_cuda_acquire_context(remember_acquire);
        halide_reuse_device_allocations(nullptr, reuse);
        // The inputs go to the device once; runs find them there (host not
        // dirty), and the output stays there (device dirty) until the end.
        double t = now_ms();
        for (halide_buffer_t *b : inputs) {
            b->set_host_dirty(true);
            int err = halide_copy_to_device(nullptr, b, cuda_iface);
            if (err) return fail("copying the input to the device", err);
        }
        int err = halide_device_malloc(nullptr, output, cuda_iface);
        if (err) return fail("allocating the output on the device", err);
        setup_ms = now_ms() - t;
        timer = cu.ok ? "cuda events (legacy default stream)" : "device_sync + steady_clock";
    }

    auto sync = [&]() -> int { return gpu ? halide_device_sync(nullptr, output) : 0; };

    // The first (cold) run: on CUDA it loads the module (the driver JIT-compiles the PTX).
    double t0 = now_ms();
    int err = call();
    if (!err) err = sync();
    double first_ms = now_ms() - t0;
    if (err) return fail("the first run", err);

    for (int i = 0; i < warmup; i++) {
        err = call();
        if (err) return fail("a warm-up run", err);
    }
    if ((err = sync())) return fail("device_sync", err);

    bool events = gpu && cu.ok && halide_ctx;
    CUevent e0 = nullptr, e1 = nullptr;
    if (gpu && cu.ok && !halide_ctx) timer = "device_sync + steady_clock";
    if (events) {
        if (cu.ctxPush(halide_ctx) || cu.eventCreate(&e0, 0) || cu.eventCreate(&e1, 0)) {
            fprintf(stderr, "halide14_bench: cuEventCreate failed; timing with device_sync + steady_clock\n");
            events = false;
            timer = "device_sync + steady_clock";
        }
        if (cu.ctxGetDevice && cu.deviceGetName) {
            int dev = 0;
            char name[256] = {0};
            if (cu.ctxGetDevice(&dev) == 0 && cu.deviceGetName(name, sizeof name - 1, dev) == 0) device = name;
        }
        if (cu.driverGetVersion) {
            int v = 0;
            if (cu.driverGetVersion(&v) == 0) device += " (driver API " + std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10) + ")";
        }
    } else if (gpu) {
        device = "cuda";
    }

    // One timed run: each run alone, synchronized at its end.
    auto timed = [&](int n, double *ms) -> int {
        if (events) {
            if (cu.eventRecord(e0, nullptr)) return -1000;
            for (int i = 0; i < n; i++)
                if (int e = call()) return e;
            if (cu.eventRecord(e1, nullptr) || cu.eventSynchronize(e1)) return -1001;
            float f = 0;
            if (cu.eventElapsed(&f, e0, e1)) return -1002;
            *ms = f;
            return 0;
        }
        double t = now_ms();
        for (int i = 0; i < n; i++)
            if (int e = call()) return e;
        if (int e = sync()) return e;
        *ms = now_ms() - t;
        return 0;
    };
    std::vector<double> times;
    for (int i = 0; i < runs; i++) {
        double ms = 0;
        if ((err = timed(1, &ms))) return fail("a timed run", err);
        times.push_back(ms);
    }
    // The same runs back to back, one synchronization at the end: the mean.
    double batch_ms = 0;
    if ((err = timed(runs, &batch_ms))) return fail("the batched runs", err);
    if (events) {
        CUcontext dummy;
        cu.ctxPop(&dummy);
    }
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    double median = sorted[sorted.size() / 2], mn = sorted.front(), mx = sorted.back();

    if (gpu) {
        if ((err = halide_copy_to_host(nullptr, output))) return fail("copying the output to the host", err);
    }
    if (!out_path.empty() && !write_output()) return 2;

    std::string line = "{\"app\":" + json_str(app) + ",\"target\":" + json_str(target) + ",\"size\":" + json_str(size) +
                       ",\"median_ms\":" + fmt(median) + ",\"min_ms\":" + fmt(mn) + ",\"max_ms\":" + fmt(mx) +
                       ",\"runs\":" + std::to_string(runs) + ",\"warmup\":" + std::to_string(warmup) +
                       ",\"threads\":" + std::to_string(gpu ? 1 : desired_threads()) +
                       ",\"host_cpus\":" + std::to_string(halide_host_cpu_count()) + ",\"timer\":" + json_str(timer) +
                       ",\"single_run_ms\":" + fmt(times[0]) + ",\"batched_mean_ms\":" + fmt(batch_ms / runs) +
                       ",\"first_run_ms\":" + fmt(first_ms);
    if (gpu) line += ",\"setup_ms\":" + fmt(setup_ms) + ",\"reuse_device_allocations\":" + (reuse ? "true" : "false");
    line += ",\"device\":" + json_str(device) + ",\"halide\":\"14.0.0 (Debian libhalide14-0-dev, apps of tag v14.0.0)\"" +
            ",\"halide_target\":" + json_str(halide_target) + ",\"input\":" +
            json_str(input_desc) + ",\"params\":{" + params + "}," + sum_output() + "}";
    printf("%s\n", line.c_str());
    fflush(stdout);
    return 0;
}
