//===- DependentCalls.cpp - remote calls in templates ---------------------===//
#include "pocc/DependentCalls.h"
#include "pocc/RemoteModel.h"

#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace clang;

namespace pocc {

namespace {
/// The member struct of `remote<T>` holding one variant's forwarders. Its
/// members are named like the class's methods, so the struct's own name has
/// a prefix no method is likely to have (a member named like its struct
/// would be a constructor).
std::string variantStruct(llvm::StringRef Variant) {
  return "poc_" + (Variant.empty() ? "call" : Variant.drop_front()).str();
}

/// The name of the helper for calls of \p Method (`call_f`, `start_f`, ...).
std::string helperName(llvm::StringRef Method, llvm::StringRef Variant) {
  return (Variant.empty() ? "call" : Variant.drop_front()).str() + "_" + Method.str();
}
} // namespace

DependentCalls::DependentCalls(InterfaceGen &Gen,
                               const std::vector<const CXXRecordDecl *> &Remotable)
    : Gen(Gen) {
  // The classes and their bases (calls through a base pointer), each once.
  std::set<const CXXRecordDecl *> Seen;
  std::vector<const CXXRecordDecl *> Work(Remotable.rbegin(), Remotable.rend());
  while (!Work.empty()) {
    const CXXRecordDecl *RD = Work.back();
    Work.pop_back();
    if (!RD || !(RD = RD->getDefinition()) || !Seen.insert(RD).second)
      continue;
    Classes.push_back(RD);
    for (const RemoteMethod &M : Gen.classFor(RD).Methods)
      if (!M.Problem)
        RemoteNames.insert(M.Decl->getNameAsString());
    for (const CXXBaseSpecifier &B : RD->bases())
      if (B.getAccessSpecifier() == AS_public)
        Work.push_back(B.getType()->getAsCXXRecordDecl());
  }
}

std::string DependentCalls::useCreation(bool Started) {
  std::string Helper = Started ? "start_create" : "create";
  Creations.insert(Helper);
  return "::poc_gen::" + Helper;
}

std::vector<const RemoteMethod *> DependentCalls::creators(const RemoteClass &C) const {
  std::vector<const RemoteMethod *> Out;
  if (Creations.empty() || !C.Concrete || C.Decl->isLocalClass())
    return Out;
  for (const RemoteMethod &M : C.Ctors)
    if (!M.Problem)
      Out.push_back(&M);
  return Out;
}

std::string DependentCalls::use(llvm::StringRef Name, llvm::StringRef Variant) {
  Uses[Name.str()].insert(Variant.str());
  return "::poc_gen::" + helperName(Name, Variant);
}

void DependentCalls::lookup(const CXXRecordDecl *RD, llvm::StringRef Name,
                            std::vector<Target> &Out) {
  if (!RD || !(RD = RD->getDefinition()))
    return;
  bool Declares = false;
  for (const CXXMethodDecl *MD : RD->methods()) {
    if (!MD->getDeclName().isIdentifier() || MD->getName() != Name)
      continue;
    Declares = true;
    const RemoteMethod *M = Gen.methodFor(MD);
    if (M && !M->Problem)
      Out.push_back({&Gen.unitFor(MD), M});
  }
  if (Declares)
    return;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (B.getAccessSpecifier() == AS_public)
      lookup(B.getType()->getAsCXXRecordDecl(), Name, Out);
}

std::map<std::pair<std::string, std::string>, std::vector<DependentCalls::Target>>
DependentCalls::targets(const RemoteClass &C) {
  std::map<std::pair<std::string, std::string>, std::vector<Target>> Out;
  for (const auto &[Name, Variants] : Uses) {
    std::vector<Target> Found;
    lookup(C.Decl, Name, Found);
    if (Found.empty())
      continue;
    for (const std::string &V : Variants)
      Out[{Name, V}] = Found;
  }
  return Out;
}

std::vector<const RemoteClass *> DependentCalls::specialisedClasses() {
  std::vector<const RemoteClass *> Out;
  for (const CXXRecordDecl *RD : Classes) {
    const RemoteClass &C = Gen.classFor(RD);
    if (!targets(C).empty() || !creators(C).empty())
      Out.push_back(&C);
  }
  std::sort(Out.begin(), Out.end(),
            [](const RemoteClass *A, const RemoteClass *B) { return A->Name < B->Name; });
  return Out;
}

std::vector<const RemoteClass *> DependentCalls::unitsCalledBy(const RemoteClass &C) {
  std::vector<const RemoteClass *> Units;
  for (const RemoteMethod *M : creators(C))
    for (const std::string &Helper : Creations)
      Gen.use(C, *M, Helper);
  for (const auto &[Use, Found] : targets(C))
    for (const Target &T : Found) {
      Gen.use(*T.Unit, *T.Method, Use.second);
      if (std::find(Units.begin(), Units.end(), T.Unit) == Units.end())
        Units.push_back(T.Unit);
    }
  return Units;
}

std::string DependentCalls::emitHelpers() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "// poc++: calls in templates through pointers whose class is known "
        "only at\n// instantiation: remote calls for remotable classes, plain "
        "calls otherwise.\n"
     << "namespace poc_gen {\n"
     << "/// Specialised for every remotable class with a method called this "
        "way.\n"
     << "template <class T> struct remote {\n"
     << "static constexpr bool poc_remotable = false;\n};\n"
     << "template <class P>\nusing remote_target = "
        "remote<std::remove_cv_t<std::remove_pointer_t<std::remove_cvref_t<"
        "P>>>>;\n"
     << "/// True if `P` is a pointer to a remotable class.\n"
     << "template <class P>\ninline constexpr bool is_remote_target =\n"
        "std::is_pointer_v<std::remove_cvref_t<P>> && "
        "remote_target<P>::poc_remotable;\n";
  for (const auto &[Name, Variants] : Uses)
    for (const std::string &V : Variants) {
      std::string Struct = variantStruct(V);
      std::string Plain = "std::forward<P>(self)->" + Name + "(std::forward<A>(a)...)";
      OS << "/// `p->" << Name << "(args)` "
         << (V.empty()       ? ""
             : V == "_start" ? "started "
                             : "started for a future ")
         << "in a template.\n"
         << "template <class P, class... A>\n"
         << (V.empty()       ? "decltype(auto)"
             : V == "_start" ? "void"
                             : "auto")
         << " " << helperName(Name, V) << "(P &&self, A &&...a) {\n"
         << "if constexpr (is_remote_target<P>)\n"
         << (V == "_start" ? "" : "return ") << "remote_target<P>::" << Struct << "::" << Name
         << "(self, std::forward<A>(a)...);\n";
      if (V.empty())
        OS << "else\nreturn " << Plain << ";\n";
      else // queued on the local object, as start on an object (poc/start_on.hpp)
        OS << "else\n"
           << (V == "_start" ? "::poc::start_on" : "return ::poc::start_on_future")
           << "(&*self, [... a = std::forward<A>(a)](auto *poc_self) mutable {\nreturn poc_self->"
           << Name << "(a...);\n});\n";
      OS << "}\n";
    }
  for (const std::string &Helper : Creations)
    OS << "/// `" << (Helper == "create" ? "" : "start ") << "new (m) T(args)` in a template.\n"
       << "template <class T, class... A>\nT *" << Helper
       << "(const ::poc::machine &where, A &&...a) {\n"
       << "static_assert(remote<T>::poc_remotable, \"poc++: new (m) T(...) in a template "
          "creates a process only of a class that this file names as T (e.g. "
          "make<Counter>(...)) or creates elsewhere\");\n"
       << "return remote<T>::poc_create::" << Helper << "(where, std::forward<A>(a)...);\n}\n";
  OS << "} // namespace poc_gen\n";
  return S;
}

std::string DependentCalls::emitSpecialisation(const RemoteClass &C) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "// poc++: calls in templates through a pointer to '" << C.Name
     << "'.\nnamespace poc_gen {\n"
     << "template <> struct remote<" << C.Type << "> {\n"
     << "static constexpr bool poc_remotable = true;\n";
  std::map<std::string, std::string> Structs; // struct name -> body
  for (const auto &[Use, Targets] : targets(C))
    for (const Target &T : Targets)
      Structs[variantStruct(Use.second)] +=
          "static " + Gen.wrapperResult(*T.Method, Use.second) + " " + Use.first + "(" +
          Gen.selfParam(*T.Unit, *T.Method) + Gen.wrapperParams(*T.Method, true) + ");\n";
  for (const RemoteMethod *M : creators(C))
    for (const std::string &Helper : Creations)
      Structs["poc_create"] += "static " + C.Type + " *" + Helper + "(const ::poc::machine &where" +
                               Gen.wrapperParams(*M, true) + ");\n";
  for (const auto &[Struct, Body] : Structs)
    OS << "struct " << Struct << " {\n" << Body << "};\n";
  OS << "};\n} // namespace poc_gen\n";
  return S;
}

std::string DependentCalls::emitDefinitions(const RemoteClass &C) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (const auto &[Use, Targets] : targets(C))
    for (const Target &T : Targets)
      OS << "inline " << Gen.wrapperResult(*T.Method, Use.second) << " poc_gen::remote<" << C.Type
         << ">::" << variantStruct(Use.second) << "::" << Use.first << "("
         << Gen.selfParam(*T.Unit, *T.Method) << Gen.wrapperParams(*T.Method, false) << ") {\n"
         << "return ::poc_gen::" << T.Unit->Id << "_client::" << T.Method->Key << Use.second
         << "(self" << Gen.forwardedArgs(*T.Method, true) << ");\n}\n";
  for (const RemoteMethod *M : creators(C))
    for (const std::string &Helper : Creations)
      OS << "inline " << C.Type << " *poc_gen::remote<" << C.Type << ">::poc_create::" << Helper
         << "(const ::poc::machine &where" << Gen.wrapperParams(*M, false) << ") {\n"
         << "return ::poc_gen::" << C.Id << "_client::" << Helper << "_" << M->Key.substr(5)
         << "(where" << Gen.forwardedArgs(*M, true) << ");\n}\n";
  return S;
}

} // namespace pocc
