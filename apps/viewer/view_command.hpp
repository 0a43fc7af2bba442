// `seiche view` (built when GLFW, GLEW, OpenGL and Dear ImGui are there).
#pragma once

#include <string>
#include <vector>

namespace seiche::viewer {

struct ViewOptions {
    std::string target;                  //!< a scene file, or a run directory to play back
    std::vector<std::string> overrides;  //!< --set key=value
    int threads = 0;
    int width = 1280, height = 720;      //!< window, pixels
    int frames = 0;                      //!< > 0: draw this many frames, one step each, then quit
    std::string screenshot;              //!< PNG of the last frame (with --frames)
    std::string script;                  //!< scripted input (JSON)
    bool benchmark = false;              //!< print frames per second and where the time goes
    bool free = false;                   //!< with frames: the simulation free on its thread
};

int view_command(const ViewOptions& o);

}  // namespace seiche::viewer
