// The deliberate bug of one example library, by its `--bug` name ("" for
// none), compiled into each library beside the one shared compiled copy of
// layout_plugin.cc (examples/impl/CMakeLists.txt).
namespace tilecheck_example {
extern const char kPluginBug[] = TILECHECK_EXAMPLE_BUG_NAME;
}  // namespace tilecheck_example
