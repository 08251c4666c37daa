// petal.h from C++: a future resolved by a std::thread while the main thread waits.
#include <petal.h>

#include <atomic>
#include <cstdio>
#include <thread>

static void count_call(petal_future *, void *context) {
    static_cast<std::atomic<int> *>(context)->fetch_add(1);
}

int main() {
    static petal_future future;
    static int answer = 42;
    std::atomic<int> calls{0};
    petal_future_init(&future);
    if (petal_future_subscribe(&future, count_call, &calls) != PETAL_OK) return 1;
    std::thread resolver([] { petal_future_fulfil(&future, &answer); });
    int status = petal_future_wait(&future, nullptr);
    resolver.join();
    if (status != PETAL_STATUS_FULFILLED || calls.load() != 1) return 1;
    std::printf("petal-consumer C++: value %d, %d callback\n",
                *static_cast<int *>(petal_future_payload(&future)), calls.load());
    return 0;
}
