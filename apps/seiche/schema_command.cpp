// seiche schema: the JSON Schema of scene files, or the parameter tables of the docs, from the
// parameter tables.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "seiche/io/scene_schema.hpp"
#include "seiche/io/writers.hpp"

namespace seiche::app {

int schema_command(const SchemaOptions& o) {
    const std::string text =
        o.markdown ? io::parameter_tables_markdown() : io::scene_schema().dump(2) + "\n";
    if (o.output.empty()) {
        std::cout << text;
        return 0;
    }
    try {
        io::write_file_atomic(o.output, [&](std::ostream& out) { out << text; });
    } catch (const std::exception& e) {
        std::fprintf(stderr, "seiche: %s\n", e.what());
        return 1;
    }
    return 0;
}

}  // namespace seiche::app
