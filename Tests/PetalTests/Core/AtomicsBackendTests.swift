import CPetal
import Testing

@Suite("The core's atomics backend")
struct AtomicsBackendTests {
    /// The backend the library's C was compiled with, and the one the Clang importer chose for the
    /// inline protocol this module (like Petal) compiles: a mismatch would mean the build's
    /// choice reached only one of them.
    @Test("the compiled core and the imported headers use the same atomics")
    func compiledAndImportedAgree() {
        let compiled = String(cString: petal_atomics_backend())
        #expect(compiled == PETAL_ATOMICS_BACKEND)
        #expect(["libatomic_ops", "C11"].contains(compiled))
    }

    @Test("the C11Atomics trait selects the C11 backend")
    func traitSelectsC11() {
        #if C11Atomics
            #expect(String(cString: petal_atomics_backend()) == "C11")
            #expect(PETAL_ATOMICS_BACKEND == "C11")
        #else
            // Without the trait: libatomic_ops wherever its header is found, which Linux CI installs.
            #if os(Linux)
                #expect(String(cString: petal_atomics_backend()) == "libatomic_ops")
            #endif
        #endif
    }
}
