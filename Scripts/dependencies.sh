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
    echo "${missing[@]}"
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
