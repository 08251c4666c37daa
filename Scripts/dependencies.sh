# Sourced by Petal's scripts: installs what a fresh Debian/Ubuntu machine lacks to build and test.
# The Swift toolchain itself is expected on PATH.

petal_missing_packages() {
    local missing=()
    pkg-config --exists atomic_ops 2>/dev/null || missing+=(libatomic-ops-dev)
    command -v pkg-config >/dev/null || missing+=(pkg-config)
    command -v cmake >/dev/null || missing+=(cmake)
    command -v ninja >/dev/null || missing+=(ninja-build)
    command -v spin >/dev/null || missing+=(spin)
    command -v gcc >/dev/null || missing+=(gcc)
    command -v g++ >/dev/null || missing+=(g++)
    # clang (a Swift toolchain has one) runs the sanitizer builds and the fuzzer. Debian's clang
    # keeps libFuzzer apart, in libclang-rt-<major>-dev; a toolchain's clang has it built in.
    if ! command -v clang >/dev/null; then
        missing+=(clang libclang-rt-dev)
    elif ! petal_can_fuzz clang; then
        missing+=("libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev")
    fi
    echo "${missing[@]}"
}

# Whether compiler $1 links a libFuzzer target with AddressSanitizer and UBSan (Scripts/fuzz).
petal_can_fuzz() {
    local cc=$1 dir status=0
    dir=$(mktemp -d "${TMPDIR:-/tmp}/petal-fuzz-probe.XXXXXX") || return 1
    printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
        'int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);' \
        'int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { (void)data; (void)size; return 0; }' \
        >"$dir/probe.c"
    "$cc" -fsanitize=fuzzer,address,undefined "$dir/probe.c" -o "$dir/probe" >/dev/null 2>&1 || status=1
    rm -rf "$dir"
    return $status
}

petal_install_dependencies() {
    local missing
    missing=$(petal_missing_packages)
    [ -z "$missing" ] && return 0
    echo "==> installing: $missing"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null; then sudo="sudo"; else
            echo "error: need root (or sudo) to install: $missing" >&2
            return 1
        fi
    fi
    if ! command -v apt-get >/dev/null; then
        echo "error: no apt-get here; install these yourself: $missing" >&2
        return 1
    fi
    # shellcheck disable=SC2086
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}
