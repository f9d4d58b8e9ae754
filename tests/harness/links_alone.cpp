// Linked with one models library, whole, and the libraries of the layers it uses (tests/harness/
// CMakeLists.txt): the build fails if the library calls into a layer src/layers.cmake does not let it use.
int main() { return 0; }
