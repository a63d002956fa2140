//===- compiler/line_tables.cpp - line tables from .file/.loc and the PTX text ---------===//
///
/// \file
/// HW: observed on ptxas 13.0.88 cubins (-lineinfo and plain compiles of PTX with .loc;
/// tests/lit/lineinfo):
///  - .debug_line's file table is the `.file` table in index order, each path split at its
///    last '/' into an include directory (listed once, in order of first use) and a name;
///    mtime and size come from `.file`'s optional fields, else from the file system (0 when
///    the file does not exist);
///  - .debug_line: an instruction belongs to the last `.loc` before its PTX line in its
///    function; a row starts where that changes; code before any (set-up code) belongs to
///    the function's first `.loc`, and code with no PTX line, or under a `.loc` of line 0,
///    extends the row before it;
///  - .nv_debug_line_sass: a row wherever the PTX line changes, code with no PTX line on the
///    body's `{` line;
///  - `.loc f l c, function_name F, inlined_at f2 l2 c2`: rows say file f line l. ptxas adds
///    a row for the call site and an NVIDIA extended opcode (0x90) naming it; not written
///    here (its operands are not understood), so inlined code keeps its own lines but
///    nvdisasm -gi shows no inlining. With inlined_at in the PTX ptxas's .debug_line header
///    ends in 4 zero bytes; they are written too.
//===----------------------------------------------------------------------------------===//
#include "compiler/line_tables.h"

#include "frontend/ptx_ast.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <system_error>

namespace ptxmini {

namespace {

bool startsWithWord(std::string_view s, std::string_view word) {
  if (s.substr(0, word.size()) != word)
    return false;
  return s.size() == word.size() || s[word.size()] == ' ' || s[word.size()] == '\t';
}

} // namespace

std::vector<uint8_t> ptxDebugText(std::string_view text) {
  std::vector<uint8_t> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    size_t b = line.find_first_not_of(" \t");
    line = b == std::string_view::npos ? std::string_view() : line.substr(b);
    if (line.substr(0, 2) == "//" || startsWithWord(line, ".loc") ||
        startsWithWord(line, ".file") || startsWithWord(line, ".b8") ||
        startsWithWord(line, ".b16") || startsWithWord(line, ".b32") ||
        startsWithWord(line, ".b64"))
      line = {};
    out.insert(out.end(), line.begin(), line.end());
    out.push_back(0);
  }
  return out;
}

LineTables::LineTables(const ptx::Module &m, std::string_view ptxText) {
  info_.ptxText = ptxDebugText(ptxText);
  // HW (ptxas 13.0.88 -lineinfo on Triton's PTX): the PTX's .debug_str is written as it is
  // (it holds the names `.loc ..., function_name` points at); its labels take no bytes.
  for (const ptx::Section &s : m.sections) {
    if (s.name != ".debug_str")
      continue;
    for (const ptx::SectionItem &item : s.items) {
      if (item.kind == ptx::SectionItem::Kind::Label)
        strLabels_[item.label] = static_cast<uint32_t>(info_.debugStr.size());
      if (item.kind != ptx::SectionItem::Kind::Data)
        continue;
      unsigned bytes = item.directive == "b8" ? 1 : item.directive == "b16" ? 2
                     : item.directive == "b32" ? 4 : 8;
      for (const ptx::InitValue &v : item.values)
        for (unsigned i = 0; i < bytes; ++i)
          info_.debugStr.push_back(
              v.kind == ptx::InitValue::Kind::Int ? static_cast<uint8_t>(v.intValue >> (8 * i))
                                                  : 0);
    }
  }
  std::vector<const ptx::FileEntry *> files;
  for (const ptx::FileEntry &f : m.files)
    files.push_back(&f);
  std::stable_sort(files.begin(), files.end(), [](const ptx::FileEntry *a,
                                                  const ptx::FileEntry *b) {
    return a->index < b->index;
  });
  for (const ptx::FileEntry *f : files) {
    if (fileIndex_.count(f->index))
      continue;
    cubin::LineFile lf;
    size_t slash = f->path.rfind('/');
    lf.name = slash == std::string::npos ? f->path : f->path.substr(slash + 1);
    if (slash != std::string::npos) {
      std::string dir = f->path.substr(0, slash);
      auto it = std::find(info_.dirs.begin(), info_.dirs.end(), dir);
      lf.dir = static_cast<uint32_t>(it - info_.dirs.begin()) + 1;
      if (it == info_.dirs.end())
        info_.dirs.push_back(dir);
    }
    if (f->timestamp || f->size) {
      lf.mtime = f->timestamp;
      lf.size = f->size;
    } else {
      std::error_code ec;
      std::filesystem::path p(f->path);
      if (std::filesystem::is_regular_file(p, ec)) {
        auto size = std::filesystem::file_size(p, ec);
        lf.size = ec ? 0 : size;
        auto t = std::filesystem::last_write_time(p, ec);
        if (!ec)
          lf.mtime = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(
                                               std::chrono::file_clock::to_sys(t)
                                                   .time_since_epoch())
                                               .count());
      }
    }
    info_.files.push_back(std::move(lf));
    fileIndex_[f->index] = static_cast<uint32_t>(info_.files.size());
  }
  for (const ptx::Function &f : m.functions) {
    if (!f.hasBody)
      continue;
    FunctionLocs fl;
    fl.bodyLine = f.body.line;
    collect(f.body, fl);
    std::stable_sort(fl.locs.begin(), fl.locs.end(),
                     [](const Loc &a, const Loc &b) { return a.ptxLine < b.ptxLine; });
    hasLocs_ |= !fl.locs.empty();
    functions_[f.name] = std::move(fl);
  }
}

void LineTables::collect(const ptx::Block &b, FunctionLocs &out) {
  for (const ptx::Statement &st : b.statements) {
    if (st.is<ptx::Block>()) {
      collect(st.as<ptx::Block>(), out);
    } else if (st.is<ptx::Directive>()) {
      const ptx::Directive &d = st.as<ptx::Directive>();
      if (d.kind != ptx::Directive::Kind::Loc)
        continue;
      auto it = fileIndex_.find(d.file);
      if (it == fileIndex_.end())
        continue; // the checker reports a .loc naming no .file
      Loc loc{d.line, it->second, d.locLine};
      loc.column = d.locColumn;
      if (d.hasInlinedAt) {
        loc.inlined = true;
        auto at = fileIndex_.find(d.inlinedAt[0]);
        loc.atFile = at == fileIndex_.end() ? 0 : at->second;
        loc.atLine = d.inlinedAt[1];
        loc.atColumn = d.inlinedAt[2];
        if (!d.args.empty())
          if (auto l = strLabels_.find(d.args[0]); l != strLabels_.end())
            loc.functionName = l->second;
      }
      out.locs.push_back(loc);
      if (d.hasInlinedAt) {
        info_.headerPadding = 4; // HW: see encodeLineUnit
        info_.strAfterLine = true;
      }
    }
  }
}

void LineTables::addRows(const std::string &function, const std::vector<uint32_t> &lines,
                         uint32_t base, std::vector<cubin::LineRow> &sourceRows,
                         std::vector<cubin::LineRow> &ptxRows) const {
  auto it = functions_.find(function);
  if (it == functions_.end())
    return;
  const FunctionLocs &fl = it->second;
  auto locOf = [&](uint32_t ptxLine) -> const Loc * {
    auto after = std::upper_bound(fl.locs.begin(), fl.locs.end(), ptxLine,
                                  [](uint32_t l, const Loc &x) { return l < x.ptxLine; });
    return after == fl.locs.begin() ? nullptr : &*(after - 1);
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    uint32_t offset = base + static_cast<uint32_t>(i) * 16;
    uint32_t ptxLine = lines[i] ? lines[i] : fl.bodyLine;
    if (ptxRows.empty() || ptxRows.back().line != ptxLine)
      ptxRows.push_back(cubin::LineRow{offset, 0, ptxLine});
    const Loc *loc = lines[i] ? locOf(lines[i]) : nullptr;
    if (loc && !loc->line && !sourceRows.empty())
      continue; // HW: `.loc f 0 c` (no source line): the row before goes on
    if (!loc || !loc->line) {
      // Set-up code or code before the first .loc: the function's first .loc when the
      // sequence has no row yet, else the row before goes on.
      auto first = std::find_if(fl.locs.begin(), fl.locs.end(),
                                [](const Loc &l) { return l.line != 0; });
      if (!sourceRows.empty() || first == fl.locs.end())
        continue;
      loc = &*first;
    }
    cubin::LineRow row{offset, loc->file, loc->line};
    row.inlined = loc->inlined;
    row.atFile = loc->atFile;
    row.atLine = loc->atLine;
    row.atColumn = loc->atColumn;
    row.functionName = loc->functionName;
    row.column = loc->column;
    // A new row when the line or the inlining context changes (the column alone does not
    // make one, as ptxas).
    const cubin::LineRow *prev = sourceRows.empty() ? nullptr : &sourceRows.back();
    if (!prev || prev->file != row.file || prev->line != row.line ||
        prev->inlined != row.inlined || prev->atFile != row.atFile ||
        prev->atLine != row.atLine || prev->atColumn != row.atColumn ||
        prev->functionName != row.functionName)
      sourceRows.push_back(row);
  }
}

} // namespace ptxmini
