#include "gl_scene.hpp"

#include <GL/glew.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "seiche/render.hpp"

namespace seiche::viewer {

namespace {

// Sphere impostors: a point sprite as large as the particle seen from here; the fragment
// shader cuts the disc, lights it as the sphere's front and writes the sphere's depth, so
// particles intersect correctly with each other and with the bodies.
const char* particle_vs = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in float value;
uniform mat4 view_matrix;
uniform mat4 projection;
uniform float radius;
uniform float viewport_height;
uniform bool ortho;
uniform float lo;
uniform float hi;
out vec3 centre;
out float shade;
void main() {
    vec4 p = view_matrix * vec4(position, 1.0);
    centre = p.xyz;
    gl_Position = projection * p;
    float scale = projection[1][1] * viewport_height * radius;
    gl_PointSize = ortho ? scale : scale / max(-p.z, 1e-4);
    shade = clamp((value - lo) / max(hi - lo, 1e-12), 0.0, 1.0);
}
)";

const char* particle_fs = R"(#version 330 core
in vec3 centre;
in float shade;
uniform mat4 projection;
uniform float radius;
uniform sampler1D colormap;
out vec4 colour;
void main() {
    vec2 c = gl_PointCoord * 2.0 - 1.0;
    c.y = -c.y;
    float r2 = dot(c, c);
    if (r2 > 1.0) discard;
    vec3 n = vec3(c, sqrt(1.0 - r2));
    vec4 clip = projection * vec4(centre + radius * n, 1.0);
    gl_FragDepth = 0.5 * clip.z / clip.w + 0.5;
    vec3 base = texture(colormap, shade).rgb;
    vec3 light = normalize(vec3(0.35, 0.55, 0.75));
    float diffuse = max(dot(n, light), 0.0);
    float specular = pow(max(dot(reflect(-light, n), vec3(0.0, 0.0, 1.0)), 0.0), 24.0);
    colour = vec4(base * (0.45 + 0.55 * diffuse) + 0.2 * specular, 1.0);
}
)";

const char* line_vs = R"(#version 330 core
layout(location = 0) in vec3 position;
uniform mat4 view_matrix;
uniform mat4 projection;
void main() { gl_Position = projection * view_matrix * vec4(position, 1.0); }
)";

const char* line_fs = R"(#version 330 core
uniform vec3 tint;
out vec4 colour;
void main() { colour = vec4(tint, 1.0); }
)";

const char* mesh_vs = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 view_matrix;
uniform mat4 projection;
out vec3 n_view;
void main() {
    n_view = mat3(view_matrix) * normal;
    gl_Position = projection * view_matrix * vec4(position, 1.0);
}
)";

const char* mesh_fs = R"(#version 330 core
in vec3 n_view;
uniform vec3 tint;
out vec4 colour;
void main() {
    vec3 n = normalize(n_view);
    if (!gl_FrontFacing) n = -n;
    float diffuse = abs(dot(n, normalize(vec3(0.35, 0.55, 0.75))));
    colour = vec4(tint * (0.4 + 0.6 * diffuse), 1.0);
}
)";

// Triangles (3D) as position + face normal per vertex, or segments (2D) as positions.
std::vector<float> mesh_vertices(const SurfaceMesh& m) {
    std::vector<float> out;
    if (m.dimension == 2) {
        for (std::size_t k = 0; k + 1 < m.index.size(); k += 2)
            for (std::uint32_t v : {m.index[k], m.index[k + 1]})
                out.insert(out.end(), {m.position[3 * v], m.position[3 * v + 1], 0.0f});
        return out;
    }
    for (std::size_t k = 0; k + 2 < m.index.size(); k += 3) {
        glm::vec3 p[3];
        for (int c = 0; c < 3; ++c) {
            const std::uint32_t v = m.index[k + c];
            p[c] = {m.position[3 * v], m.position[3 * v + 1], m.position[3 * v + 2]};
        }
        glm::vec3 n = glm::cross(p[1] - p[0], p[2] - p[0]);
        const float len = glm::length(n);
        n = len > 0 ? n / len : glm::vec3(0, 1, 0);
        for (const auto& q : p) out.insert(out.end(), {q.x, q.y, q.z, n.x, n.y, n.z});
    }
    return out;
}

void mesh_layout(unsigned vao, unsigned vbo) {
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                          reinterpret_cast<void*>(3 * sizeof(float)));
    glEnableVertexAttribArray(1);
}

unsigned compile(unsigned kind, const char* source) {
    const unsigned s = glCreateShader(kind);
    glShaderSource(s, 1, &source, nullptr);
    glCompileShader(s);
    int ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("viewer: shader does not compile: ") + log);
    }
    return s;
}

unsigned program(const char* vs, const char* fs) {
    const unsigned p = glCreateProgram(), v = compile(GL_VERTEX_SHADER, vs),
                   f = compile(GL_FRAGMENT_SHADER, fs);
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    int ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) throw std::runtime_error("viewer: shader program does not link");
    return p;
}

void set_matrices(unsigned p, const glm::mat4& view, const glm::mat4& projection) {
    glUniformMatrix4fv(glGetUniformLocation(p, "view_matrix"), 1, GL_FALSE, glm::value_ptr(view));
    glUniformMatrix4fv(glGetUniformLocation(p, "projection"), 1, GL_FALSE,
                       glm::value_ptr(projection));
}

}  // namespace

glm::vec3 Camera::eye() const {
    if (ortho) return target + glm::vec3(0.0f, 0.0f, distance);
    return target + distance * glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                                         std::cos(pitch) * std::cos(yaw));
}

glm::mat4 Camera::view() const { return glm::lookAt(eye(), target, glm::vec3(0.0f, 1.0f, 0.0f)); }

glm::mat4 Camera::projection(float aspect) const {
    const float near = 0.01f * distance, far = 20.0f * distance;
    if (!ortho) return glm::perspective(fov, aspect, near, far);
    const float h = distance * std::tan(0.5f * fov);
    return glm::ortho(-h * aspect, h * aspect, -h, h, near, far);
}

void Camera::fit(const std::array<float, 3>& lo, const std::array<float, 3>& hi, bool two_d) {
    ortho = two_d;
    target = 0.5f * (glm::vec3(lo[0], lo[1], lo[2]) + glm::vec3(hi[0], hi[1], hi[2]));
    const glm::vec3 size = glm::vec3(hi[0], hi[1], hi[2]) - glm::vec3(lo[0], lo[1], lo[2]);
    const float extent = two_d ? std::max(0.5f * size.y, 0.5f * size.x / 1.6f) * 1.1f
                               : 0.5f * glm::length(size);
    distance = extent / std::tan(0.5f * fov) * (two_d ? 1.0f : 1.05f);
    if (two_d) yaw = pitch = 0.0f;
}

glm::vec3 Camera::unproject_on_plane(double px, double py, int width, int height,
                                     const glm::vec3& on) const {
    const glm::mat4 inv = glm::inverse(projection(float(width) / float(height)) * view());
    const float x = float(2.0 * px / width - 1.0), y = float(1.0 - 2.0 * py / height);
    glm::vec4 a = inv * glm::vec4(x, y, -1.0f, 1.0f), b = inv * glm::vec4(x, y, 1.0f, 1.0f);
    const glm::vec3 p0 = glm::vec3(a) / a.w, p1 = glm::vec3(b) / b.w;
    const glm::vec3 normal = glm::normalize(eye() - target), d = p1 - p0;
    const float denom = glm::dot(normal, d);
    if (std::abs(denom) < 1e-12f) return on;
    return p0 + d * (glm::dot(normal, on - p0) / denom);
}

GlScene::GlScene() {
    particle_program_ = program(particle_vs, particle_fs);
    line_program_ = program(line_vs, line_fs);
    mesh_program_ = program(mesh_vs, mesh_fs);

    glGenVertexArrays(1, &particle_vao_);
    glGenBuffers(2, particle_vbo_);
    glBindVertexArray(particle_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, particle_vbo_[0]);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, particle_vbo_[1]);
    glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(1);

    glGenVertexArrays(1, &line_vao_);
    glGenBuffers(1, &line_vbo_);
    glBindVertexArray(line_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);

    glGenVertexArrays(1, &mesh_vao_);
    glGenBuffers(1, &mesh_vbo_);
    mesh_layout(mesh_vao_, mesh_vbo_);
    glGenVertexArrays(1, &surface_vao_);
    glGenBuffers(1, &surface_vbo_);
    glBindVertexArray(0);

    // The pictures' colour map, 256 texels.
    std::vector<float> texels;
    for (int i = 0; i < 256; ++i)
        for (float c : render::colormap(i / 255.0)) texels.push_back(c / 255.0f);
    glGenTextures(1, &colormap_texture_);
    glBindTexture(GL_TEXTURE_1D, colormap_texture_);
    glTexImage1D(GL_TEXTURE_1D, 0, GL_RGB32F, 256, 0, GL_RGB, GL_FLOAT, texels.data());
    glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
}

GlScene::~GlScene() {
    glDeleteBuffers(2, particle_vbo_);
    glDeleteBuffers(1, &line_vbo_);
    glDeleteBuffers(1, &mesh_vbo_);
    glDeleteBuffers(1, &surface_vbo_);
    glDeleteVertexArrays(1, &surface_vao_);
    glDeleteVertexArrays(1, &particle_vao_);
    glDeleteVertexArrays(1, &line_vao_);
    glDeleteVertexArrays(1, &mesh_vao_);
    glDeleteTextures(1, &colormap_texture_);
    glDeleteProgram(particle_program_);
    glDeleteProgram(line_program_);
    glDeleteProgram(mesh_program_);
}

void GlScene::upload(const Snapshot& s, const std::vector<float>& values, float lo, float hi) {
    particles_ = int(s.x.size() / 3);
    radius_ = s.radius;
    lo_ = lo;
    hi_ = hi;
    glBindBuffer(GL_ARRAY_BUFFER, particle_vbo_[0]);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(s.x.size() * sizeof(float)), s.x.data(), GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, particle_vbo_[1]);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(values.size() * sizeof(float)), values.data(),
                 GL_STREAM_DRAW);

    // The container's edges (a rectangle in 2D), and 2D bodies' outlines.
    std::vector<float> lines;
    const auto& a = s.box_min;
    const auto& b = s.box_max;
    auto edge = [&](float x0, float y0, float z0, float x1, float y1, float z1) {
        lines.insert(lines.end(), {x0, y0, z0, x1, y1, z1});
    };
    if (s.dimension == 2) {
        edge(a[0], a[1], 0, b[0], a[1], 0);
        edge(b[0], a[1], 0, b[0], b[1], 0);
        edge(b[0], b[1], 0, a[0], b[1], 0);
        edge(a[0], b[1], 0, a[0], a[1], 0);
    } else {
        const float xs[2] = {a[0], b[0]}, ys[2] = {a[1], b[1]}, zs[2] = {a[2], b[2]};
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
                edge(xs[0], ys[i], zs[j], xs[1], ys[i], zs[j]);
                edge(xs[i], ys[0], zs[j], xs[i], ys[1], zs[j]);
                edge(xs[i], ys[j], zs[0], xs[i], ys[j], zs[1]);
            }
    }
    std::vector<float> triangles;
    if (s.solids.dimension == 2) {
        const std::vector<float> outline = mesh_vertices(s.solids);
        lines.insert(lines.end(), outline.begin(), outline.end());
    } else {
        triangles = mesh_vertices(s.solids);
    }
    const std::vector<float> surface = mesh_vertices(s.surface);
    surface_lines_ = s.surface.dimension == 2;
    surface_vertices_ = int(surface.size() / (surface_lines_ ? 3 : 6));
    glBindVertexArray(surface_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, surface_vbo_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(surface.size() * sizeof(float)), surface.data(), GL_STREAM_DRAW);
    if (surface_lines_) {
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
        glEnableVertexAttribArray(0);
        glDisableVertexAttribArray(1);
    } else {
        mesh_layout(surface_vao_, surface_vbo_);
    }
    glBindVertexArray(0);
    line_vertices_ = int(lines.size() / 3);
    glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(lines.size() * sizeof(float)), lines.data(), GL_STREAM_DRAW);
    mesh_vertices_ = int(triangles.size() / 6);
    glBindBuffer(GL_ARRAY_BUFFER, mesh_vbo_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(triangles.size() * sizeof(float)), triangles.data(),
                 GL_STREAM_DRAW);
}

void GlScene::draw(const Camera& camera, int width, int height) const {
    const glm::mat4 view = camera.view(),
                    projection = camera.projection(float(width) / float(std::max(height, 1)));
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_PROGRAM_POINT_SIZE);

    if (mesh_vertices_ > 0) {
        glUseProgram(mesh_program_);
        set_matrices(mesh_program_, view, projection);
        glUniform3f(glGetUniformLocation(mesh_program_, "tint"), 0.62f, 0.52f, 0.42f);
        glBindVertexArray(mesh_vao_);
        glDrawArrays(GL_TRIANGLES, 0, mesh_vertices_);
    }
    if (surface_vertices_ > 0 && !surface_lines_) {
        glUseProgram(mesh_program_);
        set_matrices(mesh_program_, view, projection);
        glUniform3f(glGetUniformLocation(mesh_program_, "tint"), 0.35f, 0.6f, 0.9f);
        glBindVertexArray(surface_vao_);
        glDrawArrays(GL_TRIANGLES, 0, surface_vertices_);
    }
    if (surface_vertices_ > 0 && surface_lines_) {
        glUseProgram(line_program_);
        set_matrices(line_program_, view, projection);
        glUniform3f(glGetUniformLocation(line_program_, "tint"), 0.1f, 0.35f, 0.8f);
        glBindVertexArray(surface_vao_);
        glDrawArrays(GL_LINES, 0, surface_vertices_);
    }
    if (particles_ > 0 && (particles_shown || surface_vertices_ == 0)) {
        glUseProgram(particle_program_);
        set_matrices(particle_program_, view, projection);
        glUniform1f(glGetUniformLocation(particle_program_, "radius"), radius_);
        glUniform1f(glGetUniformLocation(particle_program_, "viewport_height"), float(height));
        glUniform1i(glGetUniformLocation(particle_program_, "ortho"), camera.ortho ? 1 : 0);
        glUniform1f(glGetUniformLocation(particle_program_, "lo"), lo_);
        glUniform1f(glGetUniformLocation(particle_program_, "hi"), hi_);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_1D, colormap_texture_);
        glUniform1i(glGetUniformLocation(particle_program_, "colormap"), 0);
        glBindVertexArray(particle_vao_);
        glDrawArrays(GL_POINTS, 0, particles_);
    }
    if (line_vertices_ > 0) {
        glUseProgram(line_program_);
        set_matrices(line_program_, view, projection);
        glUniform3f(glGetUniformLocation(line_program_, "tint"), 0.2f, 0.22f, 0.26f);
        glBindVertexArray(line_vao_);
        glDrawArrays(GL_LINES, 0, line_vertices_);
    }
    glBindVertexArray(0);
}

}  // namespace seiche::viewer
